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
    it: 'si tengono al massimo 3 numeri: altri nel campo, non tenuti: {count}',
    en: 'at most 3 numbers are kept: more in the field, left out: {count}',
    de: 'höchstens 3 Nummern werden übernommen: weitere im Feld, ausgelassen: {count}',
    fr: '3 numéros au plus sont retenus : autres numéros du champ, écartés : {count}',
    es: 'se conservan como máximo 3 números: otros del campo, descartados: {count}',
    nl: 'hoogstens 3 nummers worden bewaard: meer in het veld, weggelaten: {count}',
    pt: 'mantêm-se no máximo 3 números: outros no campo, deixados de fora: {count}',
    sv: 'högst 3 nummer behålls: fler i fältet, utelämnade: {count}',
    no: 'høyst 3 nummer beholdes: flere i feltet, utelatt: {count}',
    fi: 'enintään 3 numeroa säilytetään: muita kentässä, pois jätetty: {count}',
    da: 'højst 3 numre beholdes: flere i feltet, udeladt: {count}',
    is: 'mest 3 númer eru geymd: fleiri í reitnum, sleppt: {count}',
    el: 'κρατούνται το πολύ 3 αριθμοί: επιπλέον στο πεδίο, παραλείφθηκαν: {count}',
  },
} satisfies Record<string, Texts>;
