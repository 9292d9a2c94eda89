import type { Language, Texts } from '../http/language.js';
import type { OutcomeTable } from '../http/outcomes.js';

export const DEDUPE_OUTCOMES: OutcomeTable = {
  INTERNAL_DUPLICATE: {
    it: 'DUPLICATO_INTERNO',
    label: 'modified',
    reason: {
      it: 'Il contatto ripete al suo interno un indirizzo, un telefono o un’email: allegato il record unificato',
      en: 'The contact repeats an address, phone or email within itself: the merged record is attached',
      de: 'Der Kontakt enthält eine Adresse, Telefonnummer oder E-Mail doppelt: der zusammengeführte Datensatz liegt bei',
      fr: 'Le contact répète en lui-même une adresse, un téléphone ou un e-mail : la fiche fusionnée est jointe',
      es: 'El contacto repite en sí mismo una dirección, un teléfono o un correo: se adjunta el registro unificado',
      nl: 'Het contact bevat een adres, telefoon of e-mail dubbel: het samengevoegde record is bijgevoegd',
      pt: 'O contacto repete em si um endereço, telefone ou e-mail: o registo unificado vem anexado',
      sv: 'Kontakten upprepar en adress, ett telefonnummer eller en e-post: den sammanslagna posten bifogas',
      no: 'Kontakten gjentar en adresse, et telefonnummer eller en e-post: den sammenslåtte posten er vedlagt',
      fi: 'Yhteystiedossa toistuu osoite, puhelin tai sähköposti: yhdistetty tietue on liitteenä',
      da: 'Kontakten gentager en adresse, et telefonnummer eller en e-mail: den sammenlagte post er vedlagt',
      is: 'Tengiliðurinn endurtekur heimilisfang, síma eða netfang: sameinaða færslan fylgir',
      el: 'Η επαφή επαναλαμβάνει διεύθυνση, τηλέφωνο ή email: επισυνάπτεται η ενοποιημένη εγγραφή',
    },
  },
};

/** Why two records were judged alike, and why a record was kept: codes from the core, texts here. */
export const REASON_TEXTS: Record<string, Texts> = {
  same_tax_code: {
    it: 'stesso codice fiscale', en: 'same tax code', de: 'gleiche Steuernummer', fr: 'même code fiscal', es: 'mismo código fiscal',
    nl: 'zelfde fiscale code', pt: 'mesmo código fiscal', sv: 'samma skattekod', no: 'samme skattekode', fi: 'sama verokoodi',
    da: 'samme skattekode', is: 'sama skattkenni', el: 'ίδιος φορολογικός κωδικός',
  },
  different_tax_codes: {
    it: 'codici fiscali diversi', en: 'different tax codes', de: 'verschiedene Steuernummern', fr: 'codes fiscaux différents',
    es: 'códigos fiscales distintos', nl: 'verschillende fiscale codes', pt: 'códigos fiscais diferentes', sv: 'olika skattekoder',
    no: 'ulike skattekoder', fi: 'eri verokoodit', da: 'forskellige skattekoder', is: 'ólík skattkenni', el: 'διαφορετικοί φορολογικοί κωδικοί',
  },
  different_gender: {
    it: 'sesso diverso', en: 'different gender', de: 'anderes Geschlecht', fr: 'sexe différent', es: 'sexo distinto', nl: 'ander geslacht',
    pt: 'sexo diferente', sv: 'olika kön', no: 'ulikt kjønn', fi: 'eri sukupuoli', da: 'forskelligt køn', is: 'ólíkt kyn', el: 'διαφορετικό φύλο',
  },
  same_name: {
    it: 'stesso nome', en: 'same name', de: 'gleicher Name', fr: 'même nom', es: 'mismo nombre', nl: 'zelfde naam', pt: 'mesmo nome',
    sv: 'samma namn', no: 'samme navn', fi: 'sama nimi', da: 'samme navn', is: 'sama nafn', el: 'ίδιο όνομα',
  },
  nickname: {
    it: 'nome equivalente (diminutivo o variante)', en: 'equivalent first name (nickname or variant)', de: 'gleichwertiger Vorname (Kurzform oder Variante)',
    fr: 'prénom équivalent (diminutif ou variante)', es: 'nombre equivalente (diminutivo o variante)', nl: 'gelijkwaardige voornaam (roepnaam of variant)',
    pt: 'nome equivalente (diminutivo ou variante)', sv: 'likvärdigt förnamn (smeknamn eller variant)', no: 'likeverdig fornavn (kallenavn eller variant)',
    fi: 'vastaava etunimi (lempinimi tai muunnos)', da: 'tilsvarende fornavn (kælenavn eller variant)', is: 'jafngilt eiginnafn (gælunafn eða afbrigði)',
    el: 'ισοδύναμο όνομα (υποκοριστικό ή παραλλαγή)',
  },
  swapped_names: {
    it: 'nome e cognome invertiti', en: 'first and last name swapped', de: 'Vor- und Nachname vertauscht', fr: 'nom et prénom inversés',
    es: 'nombre y apellido invertidos', nl: 'voor- en achternaam verwisseld', pt: 'nome e apelido trocados', sv: 'för- och efternamn omkastade',
    no: 'for- og etternavn byttet om', fi: 'etu- ja sukunimi vaihtaneet paikkaa', da: 'for- og efternavn byttet om', is: 'nöfnum víxlað',
    el: 'αντεστραμμένο όνομα και επώνυμο',
  },
  name_typo: {
    it: 'errore di battitura nel nome', en: 'typo in the name', de: 'Tippfehler im Namen', fr: 'faute de frappe dans le nom', es: 'errata en el nombre',
    nl: 'tikfout in de naam', pt: 'gralha no nome', sv: 'stavfel i namnet', no: 'skrivefeil i navnet', fi: 'kirjoitusvirhe nimessä',
    da: 'tastefejl i navnet', is: 'innsláttarvilla í nafni', el: 'τυπογραφικό λάθος στο όνομα',
  },
  first_name_initial: {
    it: 'nome solo con l’iniziale', en: 'first name given only as an initial', de: 'Vorname nur als Initiale', fr: 'prénom réduit à l’initiale',
    es: 'nombre solo con la inicial', nl: 'voornaam alleen als initiaal', pt: 'nome só com a inicial', sv: 'förnamn endast som initial',
    no: 'fornavn bare som initial', fi: 'etunimestä vain alkukirjain', da: 'fornavn kun som initial', is: 'eiginnafn aðeins sem upphafsstafur',
    el: 'όνομα μόνο με το αρχικό',
  },
  first_name_missing: {
    it: 'nome mancante in un record', en: 'first name missing in one record', de: 'Vorname fehlt in einem Datensatz', fr: 'prénom absent dans une fiche',
    es: 'falta el nombre en un registro', nl: 'voornaam ontbreekt in één record', pt: 'nome em falta num registo', sv: 'förnamn saknas i en post',
    no: 'fornavn mangler i én post', fi: 'etunimi puuttuu yhdestä tietueesta', da: 'fornavn mangler i én post', is: 'eiginnafn vantar í einni færslu',
    el: 'λείπει το όνομα σε μία εγγραφή',
  },
  same_address: {
    it: 'stesso indirizzo e civico', en: 'same address and house number', de: 'gleiche Adresse und Hausnummer', fr: 'même adresse et numéro',
    es: 'misma dirección y número', nl: 'zelfde adres en huisnummer', pt: 'mesmo endereço e número', sv: 'samma adress och husnummer',
    no: 'samme adresse og husnummer', fi: 'sama osoite ja talonumero', da: 'samme adresse og husnummer', is: 'sama heimilisfang og húsnúmer',
    el: 'ίδια διεύθυνση και αριθμός',
  },
  street_typo: {
    it: 'via scritta in modo diverso', en: 'street written differently', de: 'Straße anders geschrieben', fr: 'rue écrite différemment',
    es: 'calle escrita de otra forma', nl: 'straat anders geschreven', pt: 'rua escrita de outra forma', sv: 'gatan skriven annorlunda',
    no: 'gaten skrevet annerledes', fi: 'katu kirjoitettu eri tavalla', da: 'gaden skrevet anderledes', is: 'gata skrifuð öðruvísi',
    el: 'οδός γραμμένη διαφορετικά',
  },
  same_street: {
    it: 'stessa via', en: 'same street', de: 'gleiche Straße', fr: 'même rue', es: 'misma calle', nl: 'zelfde straat', pt: 'mesma rua',
    sv: 'samma gata', no: 'samme gate', fi: 'sama katu', da: 'samme gade', is: 'sama gata', el: 'ίδια οδός',
  },
  house_number_missing: {
    it: 'civico mancante', en: 'house number missing', de: 'Hausnummer fehlt', fr: 'numéro manquant', es: 'falta el número', nl: 'huisnummer ontbreekt',
    pt: 'número em falta', sv: 'husnummer saknas', no: 'husnummer mangler', fi: 'talonumero puuttuu', da: 'husnummer mangler', is: 'húsnúmer vantar',
    el: 'λείπει ο αριθμός',
  },
  house_number_different: {
    it: 'civico diverso', en: 'different house number', de: 'andere Hausnummer', fr: 'numéro différent', es: 'número distinto', nl: 'ander huisnummer',
    pt: 'número diferente', sv: 'annat husnummer', no: 'annet husnummer', fi: 'eri talonumero', da: 'andet husnummer', is: 'annað húsnúmer',
    el: 'διαφορετικός αριθμός',
  },
  same_city: {
    it: 'stesso comune, via mancante', en: 'same city, street missing', de: 'gleicher Ort, Straße fehlt', fr: 'même commune, rue manquante',
    es: 'mismo municipio, falta la calle', nl: 'zelfde plaats, straat ontbreekt', pt: 'mesmo município, rua em falta', sv: 'samma ort, gata saknas',
    no: 'samme sted, gate mangler', fi: 'sama paikkakunta, katu puuttuu', da: 'samme by, gade mangler', is: 'sami staður, gata vantar',
    el: 'ίδιος δήμος, λείπει η οδός',
  },
  name_within_name: {
    it: 'un nome contenuto nell’altro (stesse parole)', en: 'one name within the other (the same words)',
    de: 'ein Name im anderen enthalten (gleiche Wörter)', fr: 'un nom contenu dans l’autre (mêmes mots)',
    es: 'un nombre contenido en el otro (mismas palabras)', nl: 'de ene naam vervat in de andere (zelfde woorden)',
    pt: 'um nome contido no outro (mesmas palavras)', sv: 'det ena namnet ingår i det andra (samma ord)',
    no: 'det ene navnet inngår i det andre (samme ord)', fi: 'nimi sisältyy toiseen (samat sanat)',
    da: 'det ene navn indgår i det andet (samme ord)', is: 'annað nafnið er innan hins (sömu orð)',
    el: 'το ένα όνομα περιέχεται στο άλλο (ίδιες λέξεις)',
  },
  same_postcode: {
    it: 'stesso CAP, via mancante', en: 'same postcode, street missing', de: 'gleiche Postleitzahl, Straße fehlt',
    fr: 'même code postal, rue manquante', es: 'mismo código postal, falta la calle', nl: 'zelfde postcode, straat ontbreekt',
    pt: 'mesmo código postal, rua em falta', sv: 'samma postnummer, gata saknas', no: 'samme postnummer, gate mangler',
    fi: 'sama postinumero, katu puuttuu', da: 'samme postnummer, gade mangler', is: 'sama póstnúmer, gata vantar',
    el: 'ίδιος ταχυδρομικός κώδικας, λείπει η οδός',
  },
  same_phone: {
    it: 'stesso telefono personale', en: 'same personal phone', de: 'gleiche persönliche Telefonnummer', fr: 'même téléphone personnel',
    es: 'mismo teléfono personal', nl: 'zelfde persoonlijke telefoon', pt: 'mesmo telefone pessoal', sv: 'samma personliga telefon',
    no: 'samme personlige telefon', fi: 'sama henkilökohtainen puhelin', da: 'samme personlige telefon', is: 'sami persónulegi sími',
    el: 'ίδιο προσωπικό τηλέφωνο',
  },
  same_email: {
    it: 'stessa email personale', en: 'same personal email', de: 'gleiche persönliche E-Mail', fr: 'même e-mail personnel', es: 'mismo correo personal',
    nl: 'zelfde persoonlijke e-mail', pt: 'mesmo e-mail pessoal', sv: 'samma personliga e-post', no: 'samme personlige e-post',
    fi: 'sama henkilökohtainen sähköposti', da: 'samme personlige e-mail', is: 'sama persónulega netfang', el: 'ίδιο προσωπικό email',
  },
  shared_phone: {
    it: 'stesso telefono di un luogo condiviso (fisso, fax)', en: 'same phone of a shared place (landline, fax)',
    de: 'gleiche Telefonnummer eines gemeinsamen Ortes (Festnetz, Fax)', fr: 'même téléphone d’un lieu partagé (fixe, fax)',
    es: 'mismo teléfono de un lugar compartido (fijo, fax)', nl: 'zelfde telefoon van een gedeelde plek (vast, fax)',
    pt: 'mesmo telefone de um local partilhado (fixo, fax)', sv: 'samma telefon för en delad plats (fast, fax)',
    no: 'samme telefon for et delt sted (fast, faks)', fi: 'saman yhteisen paikan puhelin (lankapuhelin, faksi)',
    da: 'samme telefon for et fælles sted (fastnet, fax)', is: 'sami sími sameiginlegs staðar (heimasími, fax)',
    el: 'ίδιο τηλέφωνο κοινόχρηστου χώρου (σταθερό, φαξ)',
  },
  shared_email: {
    it: 'stessa email generica (info@, segreteria@…)', en: 'same generic email (info@, office@…)', de: 'gleiche allgemeine E-Mail (info@…)',
    fr: 'même e-mail générique (info@…)', es: 'mismo correo genérico (info@…)', nl: 'zelfde algemene e-mail (info@…)',
    pt: 'mesmo e-mail genérico (info@…)', sv: 'samma allmänna e-post (info@…)', no: 'samme generelle e-post (info@…)',
    fi: 'sama yleinen sähköposti (info@…)', da: 'samme generelle e-mail (info@…)', is: 'sama almenna netfang (info@…)',
    el: 'ίδιο γενικό email (info@…)',
  },
  same_birth_date: {
    it: 'stessa data di nascita', en: 'same birth date', de: 'gleiches Geburtsdatum', fr: 'même date de naissance', es: 'misma fecha de nacimiento',
    nl: 'zelfde geboortedatum', pt: 'mesma data de nascimento', sv: 'samma födelsedatum', no: 'samme fødselsdato', fi: 'sama syntymäaika',
    da: 'samme fødselsdato', is: 'sami fæðingardagur', el: 'ίδια ημερομηνία γέννησης',
  },
  birth_date_typo: {
    it: 'data di nascita con un errore di battitura', en: 'birth date one typo apart', de: 'Geburtsdatum mit einem Tippfehler',
    fr: 'date de naissance à une faute de frappe près', es: 'fecha de nacimiento con una errata', nl: 'geboortedatum met één tikfout',
    pt: 'data de nascimento com uma gralha', sv: 'födelsedatum med ett stavfel', no: 'fødselsdato med én skrivefeil',
    fi: 'syntymäaika yhden kirjoitusvirheen päässä', da: 'fødselsdato med én tastefejl', is: 'fæðingardagur með einni innsláttarvillu',
    el: 'ημερομηνία γέννησης με ένα τυπογραφικό λάθος',
  },
  different_birth_date: {
    it: 'date di nascita diverse', en: 'different birth dates', de: 'verschiedene Geburtsdaten', fr: 'dates de naissance différentes',
    es: 'fechas de nacimiento distintas', nl: 'verschillende geboortedata', pt: 'datas de nascimento diferentes', sv: 'olika födelsedatum',
    no: 'ulike fødselsdatoer', fi: 'eri syntymäajat', da: 'forskellige fødselsdatoer', is: 'ólíkir fæðingardagar', el: 'διαφορετικές ημερομηνίες γέννησης',
  },
  different_first_name: {
    it: 'nome diverso', en: 'different first name', de: 'anderer Vorname', fr: 'prénom différent', es: 'nombre distinto', nl: 'andere voornaam',
    pt: 'nome diferente', sv: 'annat förnamn', no: 'annet fornavn', fi: 'eri etunimi', da: 'andet fornavn', is: 'annað eiginnafn', el: 'διαφορετικό όνομα',
  },
  different_last_name: {
    it: 'cognome diverso', en: 'different last name', de: 'anderer Nachname', fr: 'nom de famille différent', es: 'apellido distinto',
    nl: 'andere achternaam', pt: 'apelido diferente', sv: 'annat efternamn', no: 'annet etternavn', fi: 'eri sukunimi', da: 'andet efternavn',
    is: 'annað eftirnafn', el: 'διαφορετικό επώνυμο',
  },
  different_address: {
    it: 'indirizzo diverso', en: 'different address', de: 'andere Adresse', fr: 'adresse différente', es: 'dirección distinta', nl: 'ander adres',
    pt: 'endereço diferente', sv: 'annan adress', no: 'annen adresse', fi: 'eri osoite', da: 'anden adresse', is: 'annað heimilisfang', el: 'διαφορετική διεύθυνση',
  },
  city_typo: {
    it: 'errore di battitura nella località', en: 'typo in the city', de: 'Tippfehler im Ort', fr: 'faute de frappe dans la ville',
    es: 'errata en la localidad', nl: 'tikfout in de plaats', pt: 'gralha na localidade', sv: 'stavfel i orten', no: 'skrivefeil i stedsnavnet',
    fi: 'kirjoitusvirhe paikkakunnassa', da: 'tastefejl i bynavnet', is: 'innsláttarvilla í staðarheiti', el: 'τυπογραφικό λάθος στην πόλη',
  },
  valid_tax_code: {
    it: 'ha un codice fiscale valido e coerente con il nome', en: 'has a valid tax code consistent with the name',
    de: 'hat eine gültige, zum Namen passende Steuernummer', fr: 'a un code fiscal valide et cohérent avec le nom',
    es: 'tiene un código fiscal válido y coherente con el nombre', nl: 'heeft een geldige fiscale code die bij de naam past',
    pt: 'tem um código fiscal válido e coerente com o nome', sv: 'har en giltig skattekod som stämmer med namnet',
    no: 'har en gyldig skattekode som stemmer med navnet', fi: 'sillä on kelvollinen, nimeen sopiva verokoodi',
    da: 'har en gyldig skattekode, der passer til navnet', is: 'hefur gilt skattkenni sem passar við nafnið',
    el: 'έχει έγκυρο φορολογικό κωδικό συνεπή με το όνομα',
  },
  most_complete: {
    it: 'è il record più completo', en: 'is the most complete record', de: 'ist der vollständigste Datensatz', fr: 'est la fiche la plus complète',
    es: 'es el registro más completo', nl: 'is het meest volledige record', pt: 'é o registo mais completo', sv: 'är den mest kompletta posten',
    no: 'er den mest komplette posten', fi: 'on täydellisin tietue', da: 'er den mest komplette post', is: 'er fullkomnasta færslan',
    el: 'είναι η πληρέστερη εγγραφή',
  },
  first_in_list: {
    it: 'record ugualmente completi: il primo della lista', en: 'equally complete records: the first in the list',
    de: 'gleich vollständige Datensätze: der erste der Liste', fr: 'fiches équivalentes : la première de la liste',
    es: 'registros equivalentes: el primero de la lista', nl: 'even volledige records: het eerste in de lijst',
    pt: 'registos equivalentes: o primeiro da lista', sv: 'lika kompletta poster: den första i listan',
    no: 'like komplette poster: den første i listen', fi: 'yhtä täydelliset tietueet: listan ensimmäinen',
    da: 'lige komplette poster: den første på listen', is: 'jafn fullkomnar færslur: sú fyrsta á listanum',
    el: 'ισοδύναμες εγγραφές: η πρώτη της λίστας',
  },
};

/** The texts of reason codes in a language; an unknown code is shown as it is. */
export function explain(codes: readonly string[], language: Language): string[] {
  return codes.map((c) => REASON_TEXTS[c]?.[language] ?? c);
}
