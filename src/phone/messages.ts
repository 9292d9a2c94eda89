import type { Texts } from '../http/language.js';

/** The phone `comments`, in every language of the service. */
export const PHONE_COMMENTS = {
  country_not_recognised: {
    it: 'paese non riconosciuto: numeri letti come italiani',
    en: 'country not recognised: numbers read as Italian',
    de: 'Land nicht erkannt: Nummern als italienisch gelesen',
    fr: 'pays non reconnu : numéros lus comme italiens',
    es: 'país no reconocido: números leídos como italianos',
    nl: 'land niet herkend: nummers als Italiaans gelezen',
    pt: 'país não reconhecido: números lidos como italianos',
    sv: 'landet känns inte igen: numren lästa som italienska',
    no: 'landet ble ikke gjenkjent: numrene lest som italienske',
    fi: 'maata ei tunnistettu: numerot luettu italialaisina',
    da: 'landet blev ikke genkendt: numrene læst som italienske',
    is: 'land þekktist ekki: númerin lesin sem ítölsk',
    el: 'η χώρα δεν αναγνωρίστηκε: οι αριθμοί διαβάστηκαν ως ιταλικοί',
  },
  numbers_dropped: {
    it: 'altri {count} numeri nel campo non sono stati tenuti (al massimo 3)',
    en: '{count} more number(s) in the field were not kept (at most 3)',
    de: '{count} weitere Nummer(n) im Feld wurden nicht übernommen (höchstens 3)',
    fr: '{count} autre(s) numéro(s) du champ non retenu(s) (3 au plus)',
    es: 'otros {count} número(s) del campo no se han conservado (como máximo 3)',
    nl: '{count} nummer(s) meer in het veld niet bewaard (hoogstens 3)',
    pt: 'mais {count} número(s) no campo não foram mantidos (no máximo 3)',
    sv: '{count} nummer till i fältet behölls inte (högst 3)',
    no: '{count} nummer til i feltet ble ikke beholdt (høyst 3)',
    fi: 'kentän {count} muuta numeroa jätettiin pois (enintään 3)',
    da: '{count} nummer mere i feltet blev ikke beholdt (højst 3)',
    is: '{count} númer til viðbótar í reitnum voru ekki geymd (mest 3)',
    el: '{count} ακόμη αριθμοί του πεδίου δεν κρατήθηκαν (το πολύ 3)',
  },
} satisfies Record<string, Texts>;
