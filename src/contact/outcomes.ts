import type { OutcomeTable } from '../http/outcomes.js';

// OK and MODIFIED are shared by every capability (src/http/outcomes.ts).
/** Outcome codes of /contact (the spec's address table), with their Italian forms word for word. */
export const CONTACT_OUTCOMES: OutcomeTable = {
  PO_BOX: {
    it: 'CASELLA_POSTALE',
    label: 'ok',
    reason: {
      it: 'Casella postale riconosciuta', en: 'Post office box recognised', de: 'Postfach erkannt', fr: 'Boîte postale reconnue',
      es: 'Apartado de correos reconocido', nl: 'Postbus herkend', pt: 'Caixa postal reconhecida', sv: 'Postbox känd igen',
      no: 'Postboks gjenkjent', fi: 'Postilokero tunnistettu', da: 'Postboks genkendt', is: 'Pósthólf þekkt', el: 'Αναγνωρίστηκε ταχυδρομική θυρίδα',
    },
  },
  LOCALITY_WITHOUT_STREET: {
    it: 'LOCALITA_SENZA_STRADA',
    label: 'warning',
    reason: {
      it: 'Località senza nome di strada, comunque recapitabile', en: 'Locality without street name, still deliverable',
      de: 'Ortsteil ohne Straßennamen, trotzdem zustellbar', fr: 'Lieu-dit sans nom de rue, distribuable', es: 'Localidad sin nombre de calle, entregable',
      nl: 'Plaats zonder straatnaam, toch bestelbaar', pt: 'Localidade sem nome de rua, entregável', sv: 'Ort utan gatunamn, går att dela ut',
      no: 'Sted uten gatenavn, kan likevel leveres', fi: 'Paikka ilman kadunnimeä, silti jaettavissa', da: 'Lokalitet uden vejnavn, kan stadig leveres',
      is: 'Staður án götuheitis, samt hægt að bera út', el: 'Τοποθεσία χωρίς όνομα οδού, παραδίδεται κανονικά',
    },
  },
  CITY_NOT_FOUND: {
    it: 'LOCALITA_NON_TROVATA',
    label: 'error',
    reason: {
      it: 'Comune non riconosciuto', en: 'Municipality not recognised', de: 'Gemeinde nicht erkannt', fr: 'Commune non reconnue',
      es: 'Municipio no reconocido', nl: 'Gemeente niet herkend', pt: 'Município não reconhecido', sv: 'Kommunen känns inte igen',
      no: 'Kommunen ble ikke gjenkjent', fi: 'Kuntaa ei tunnistettu', da: 'Kommunen blev ikke genkendt', is: 'Sveitarfélag óþekkt', el: 'Ο δήμος δεν αναγνωρίστηκε',
    },
  },
  CITY_AMBIGUOUS: {
    it: 'LOCALITA_AMBIGUA',
    label: 'error',
    reason: {
      it: 'Nome del comune presente in più province', en: 'Municipality name found in more than one province',
      de: 'Gemeindename in mehreren Provinzen', fr: 'Nom de commune présent dans plusieurs provinces', es: 'Nombre de municipio en más de una provincia',
      nl: 'Gemeentenaam komt in meer dan één provincie voor', pt: 'Nome de município em mais de uma província', sv: 'Kommunnamnet finns i flera provinser',
      no: 'Kommunenavnet finnes i flere provinser', fi: 'Kunnan nimi löytyy useasta maakunnasta', da: 'Kommunenavnet findes i flere provinser',
      is: 'Heiti sveitarfélags finnst í fleiri en einu héraði', el: 'Το όνομα του δήμου υπάρχει σε περισσότερες επαρχίες',
    },
  },
  STREET_NOT_FOUND: {
    it: 'INDIRIZZO_NON_TROVATO',
    label: 'error',
    reason: {
      it: 'Strada non registrata nel comune', en: 'Street not registered in the municipality', de: 'Straße in der Gemeinde nicht verzeichnet',
      fr: 'Rue non enregistrée dans la commune', es: 'Calle no registrada en el municipio', nl: 'Straat niet geregistreerd in de gemeente',
      pt: 'Rua não registada no município', sv: 'Gatan finns inte i kommunens register', no: 'Gaten er ikke registrert i kommunen',
      fi: 'Katua ei ole kunnan rekisterissä', da: 'Vejen er ikke registreret i kommunen', is: 'Gatan er ekki skráð í sveitarfélaginu',
      el: 'Η οδός δεν είναι καταχωρισμένη στον δήμο',
    },
  },
  STREET_AMBIGUOUS: {
    it: 'INDIRIZZO_AMBIGUO',
    label: 'warning',
    reason: {
      it: 'Nome di strada presente in più zone del comune', en: 'Street name found in more than one area',
      de: 'Straßenname in mehreren Ortsteilen', fr: 'Nom de rue présent dans plusieurs secteurs', es: 'Nombre de calle en más de una zona',
      nl: 'Straatnaam komt in meer dan één gebied voor', pt: 'Nome de rua em mais de uma zona', sv: 'Gatunamnet finns i flera områden',
      no: 'Gatenavnet finnes i flere områder', fi: 'Kadunnimi löytyy useammalta alueelta', da: 'Vejnavnet findes i flere områder',
      is: 'Götuheitið finnst á fleiri en einu svæði', el: 'Το όνομα της οδού υπάρχει σε περισσότερες περιοχές',
    },
  },
  STREET_TYPE_MISSING: {
    it: 'DUG_MANCANTE',
    label: 'warning',
    reason: {
      it: 'Tipo di strada (via, piazza…) non riconoscibile', en: 'Street type (via, piazza…) not recognisable',
      de: 'Straßentyp (Via, Piazza…) nicht erkennbar', fr: 'Type de voie (via, piazza…) non reconnaissable', es: 'Tipo de vía (via, piazza…) no reconocible',
      nl: 'Straattype (via, piazza…) niet herkenbaar', pt: 'Tipo de via (via, piazza…) não reconhecível', sv: 'Gatutyp (via, piazza…) går inte att känna igen',
      no: 'Gatetype (via, piazza…) kan ikke gjenkjennes', fi: 'Kadun tyyppiä (via, piazza…) ei tunnisteta', da: 'Vejtype (via, piazza…) kan ikke genkendes',
      is: 'Tegund götu (via, piazza…) óþekkjanleg', el: 'Ο τύπος οδού (via, piazza…) δεν αναγνωρίζεται',
    },
  },
  HOUSE_NUMBER_MISSING: {
    it: 'CIVICO_MANCANTE',
    label: 'warning',
    reason: {
      it: 'Numero civico mancante o non valido', en: 'House number missing or invalid', de: 'Hausnummer fehlt oder ungültig',
      fr: 'Numéro de voie manquant ou invalide', es: 'Número de portal ausente o no válido', nl: 'Huisnummer ontbreekt of ongeldig',
      pt: 'Número de porta em falta ou inválido', sv: 'Husnummer saknas eller ogiltigt', no: 'Husnummer mangler eller er ugyldig',
      fi: 'Talonnumero puuttuu tai on virheellinen', da: 'Husnummer mangler eller er ugyldigt', is: 'Húsnúmer vantar eða er ógilt',
      el: 'Ο αριθμός οδού λείπει ή δεν είναι έγκυρος',
    },
  },
  HOUSE_NUMBER_INVALID_FORMAT: {
    it: 'CIVICO_FORMATO_NON_VALIDO',
    label: 'warning',
    reason: {
      it: 'Numero civico in una forma non riconosciuta', en: 'House number in an unrecognised form', de: 'Hausnummer in unbekannter Form',
      fr: 'Numéro de voie sous une forme non reconnue', es: 'Número de portal con un formato no reconocido', nl: 'Huisnummer in een onbekende vorm',
      pt: 'Número de porta numa forma não reconhecida', sv: 'Husnummer i okänd form', no: 'Husnummer i ukjent form',
      fi: 'Talonnumero tuntemattomassa muodossa', da: 'Husnummer i en ukendt form', is: 'Húsnúmer á óþekktu formi',
      el: 'Ο αριθμός οδού έχει μη αναγνωρίσιμη μορφή',
    },
  },
  HOUSE_NUMBER_NOT_FOUND: {
    it: 'CIVICO_NON_TROVATO',
    label: 'warning',
    reason: {
      it: 'La strada esiste ma il numero civico no', en: 'The street exists but the house number does not',
      de: 'Die Straße existiert, die Hausnummer nicht', fr: 'La rue existe mais pas le numéro', es: 'La calle existe pero el número no',
      nl: 'De straat bestaat maar het huisnummer niet', pt: 'A rua existe mas o número não', sv: 'Gatan finns men inte husnumret',
      no: 'Gaten finnes, men ikke husnummeret', fi: 'Katu on olemassa, mutta talonnumeroa ei', da: 'Vejen findes, men husnummeret gør ikke',
      is: 'Gatan er til en húsnúmerið ekki', el: 'Η οδός υπάρχει αλλά ο αριθμός όχι',
    },
  },
  POSTCODE_UNCONFIRMED: {
    it: 'CAP_NON_CONFERMATO',
    label: 'warning',
    reason: {
      it: 'CAP non confermato per il numero civico, mantenuto quello indicato', en: 'Postcode not confirmed for the house number, the given one kept',
      de: 'Postleitzahl für die Hausnummer nicht bestätigt, angegebene beibehalten', fr: 'Code postal non confirmé pour le numéro, celui indiqué est conservé',
      es: 'Código postal no confirmado para el número, se mantiene el indicado', nl: 'Postcode niet bevestigd voor het huisnummer, opgegeven postcode behouden',
      pt: 'Código postal não confirmado para o número, mantido o indicado', sv: 'Postnumret kunde inte bekräftas för husnumret, det angivna behålls',
      no: 'Postnummeret er ikke bekreftet for husnummeret, det oppgitte beholdes', fi: 'Postinumeroa ei vahvistettu talonnumerolle, annettu säilytetään',
      da: 'Postnummeret er ikke bekræftet for husnummeret, det angivne beholdes', is: 'Póstnúmer ekki staðfest fyrir húsnúmerið, uppgefið haldið',
      el: 'Ο ταχυδρομικός κώδικας δεν επιβεβαιώθηκε για τον αριθμό, διατηρείται ο δοθείς',
    },
  },
  POSTCODE_PRESUMED: {
    it: 'CAP_PRESUNTO',
    label: 'warning',
    reason: {
      it: 'CAP impostato dal servizio senza conferma dal numero civico', en: 'Postcode set by the service without confirmation from the house number',
      de: 'Postleitzahl vom Dienst gesetzt, ohne Bestätigung durch die Hausnummer', fr: 'Code postal fixé par le service sans confirmation par le numéro',
      es: 'Código postal fijado por el servicio sin confirmación del número', nl: 'Postcode door de dienst ingevuld zonder bevestiging door het huisnummer',
      pt: 'Código postal definido pelo serviço sem confirmação do número', sv: 'Postnumret satt av tjänsten utan bekräftelse från husnumret',
      no: 'Postnummeret satt av tjenesten uten bekreftelse fra husnummeret', fi: 'Palvelu asetti postinumeron ilman talonnumeron vahvistusta',
      da: 'Postnummeret sat af tjenesten uden bekræftelse fra husnummeret', is: 'Póstnúmer sett af þjónustunni án staðfestingar frá húsnúmeri',
      el: 'Ο ταχυδρομικός κώδικας ορίστηκε από την υπηρεσία χωρίς επιβεβαίωση από τον αριθμό',
    },
  },
  INCOMPLETE_DATA: {
    it: 'DATI_INCOMPLETI',
    label: 'error',
    reason: {
      it: 'Dati insufficienti', en: 'Too little information', de: 'Zu wenige Angaben', fr: 'Données insuffisantes', es: 'Datos insuficientes',
      nl: 'Te weinig gegevens', pt: 'Dados insuficientes', sv: 'För lite information', no: 'For lite informasjon', fi: 'Liian vähän tietoja',
      da: 'For få oplysninger', is: 'Of litlar upplýsingar', el: 'Ανεπαρκή στοιχεία',
    },
  },
  FOREIGN: {
    it: 'ESTERO',
    label: 'ok',
    reason: {
      it: 'Indirizzo estero', en: 'Non-Italian address', de: 'Ausländische Adresse', fr: 'Adresse étrangère', es: 'Dirección extranjera',
      nl: 'Buitenlands adres', pt: 'Endereço estrangeiro', sv: 'Utländsk adress', no: 'Utenlandsk adresse', fi: 'Ulkomainen osoite',
      da: 'Udenlandsk adresse', is: 'Erlent heimilisfang', el: 'Διεύθυνση εξωτερικού',
    },
  },
  POSTCODE_INVALID_FORMAT: {
    it: 'CAP_FORMATO_NON_VALIDO',
    label: 'warning',
    reason: {
      it: 'Forma del codice postale errata per il paese', en: 'Postcode form wrong for the country', de: 'Postleitzahl hat die falsche Form für das Land',
      fr: 'Forme du code postal incorrecte pour le pays', es: 'Formato de código postal incorrecto para el país', nl: 'Postcodevorm onjuist voor het land',
      pt: 'Forma do código postal errada para o país', sv: 'Postnumrets form fel för landet', no: 'Feil postnummerform for landet',
      fi: 'Postinumeron muoto väärä maalle', da: 'Postnummerets form er forkert for landet', is: 'Rangt form póstnúmers fyrir landið',
      el: 'Λάθος μορφή ταχυδρομικού κώδικα για τη χώρα',
    },
  },
  COUNTRY_UNRESOLVED: {
    it: 'NAZIONE_NON_RISOLTA',
    label: 'error',
    reason: {
      it: 'Paese non presente nel catalogo ISO 3166-1', en: 'Country not in the ISO 3166-1 catalogue', de: 'Land nicht im ISO-3166-1-Katalog',
      fr: 'Pays absent du catalogue ISO 3166-1', es: 'País no incluido en el catálogo ISO 3166-1', nl: 'Land niet in de ISO 3166-1-catalogus',
      pt: 'País fora do catálogo ISO 3166-1', sv: 'Landet finns inte i ISO 3166-1-katalogen', no: 'Landet er ikke i ISO 3166-1-katalogen',
      fi: 'Maata ei ole ISO 3166-1 -luettelossa', da: 'Landet er ikke i ISO 3166-1-kataloget', is: 'Landið er ekki í ISO 3166-1 skránni',
      el: 'Η χώρα δεν υπάρχει στον κατάλογο ISO 3166-1',
    },
  },
  POSTCODE: {
    it: 'CAP',
    label: 'modified',
    reason: {
      it: 'CAP', en: 'postcode', de: 'Postleitzahl', fr: 'code postal', es: 'código postal', nl: 'postcode', pt: 'código postal',
      sv: 'postnummer', no: 'postnummer', fi: 'postinumero', da: 'postnummer', is: 'póstnúmer', el: 'ταχυδρομικός κώδικας',
    },
  },
  PROVINCE: {
    it: 'PROVINCIA',
    label: 'modified',
    reason: {
      it: 'provincia', en: 'province', de: 'Provinz', fr: 'province', es: 'provincia', nl: 'provincie', pt: 'província',
      sv: 'provins', no: 'provins', fi: 'maakunta', da: 'provins', is: 'hérað', el: 'επαρχία',
    },
  },
  CITY: {
    it: 'LOCALITA',
    label: 'modified',
    reason: {
      it: 'comune', en: 'municipality', de: 'Gemeinde', fr: 'commune', es: 'municipio', nl: 'gemeente', pt: 'município',
      sv: 'kommun', no: 'kommune', fi: 'kunta', da: 'kommune', is: 'sveitarfélag', el: 'δήμος',
    },
  },
  CITY_FORM: {
    it: 'LOCALITA_FORMA',
    label: 'modified',
    reason: {
      it: 'grafia del comune', en: 'spelling of the municipality', de: 'Schreibweise der Gemeinde', fr: 'graphie de la commune',
      es: 'grafía del municipio', nl: 'schrijfwijze van de gemeente', pt: 'grafia do município', sv: 'stavning av kommunen',
      no: 'skrivemåte for kommunen', fi: 'kunnan kirjoitusasu', da: 'stavemåde for kommunen', is: 'ritháttur sveitarfélags', el: 'γραφή του δήμου',
    },
  },
  STREET: {
    it: 'INDIRIZZO',
    label: 'modified',
    reason: {
      it: 'strada', en: 'street', de: 'Straße', fr: 'rue', es: 'calle', nl: 'straat', pt: 'rua', sv: 'gata', no: 'gate', fi: 'katu',
      da: 'vej', is: 'gata', el: 'οδός',
    },
  },
  STREET_FORM: {
    it: 'INDIRIZZO_FORMA',
    label: 'modified',
    reason: {
      it: 'grafia della strada', en: 'spelling of the street', de: 'Schreibweise der Straße', fr: 'graphie de la rue', es: 'grafía de la calle',
      nl: 'schrijfwijze van de straat', pt: 'grafia da rua', sv: 'stavning av gatan', no: 'skrivemåte for gaten', fi: 'kadun kirjoitusasu',
      da: 'stavemåde for vejen', is: 'ritháttur götu', el: 'γραφή της οδού',
    },
  },
  BUILDING: {
    it: 'EDIFICIO',
    label: 'modified',
    reason: {
      it: 'numero civico', en: 'house number', de: 'Hausnummer', fr: 'numéro de voie', es: 'número de portal', nl: 'huisnummer',
      pt: 'número de porta', sv: 'husnummer', no: 'husnummer', fi: 'talonnumero', da: 'husnummer', is: 'húsnúmer', el: 'αριθμός οδού',
    },
  },
};
