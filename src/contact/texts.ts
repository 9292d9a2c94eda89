/**
 * The texts of a contact's answer in the request language: the message's head, the city type's label, and
 * Italy's entry (every Italian answer names the country). Read by `present` (service.ts, foreign addresses)
 * and `answer.ts` (Italian ones).
 */
import { countryByCode } from '../countries/resolve.js';
import { labelOf } from '../http/outcomes.js';
import type { Texts } from '../http/language.js';
import { CONTACT_OUTCOMES } from './outcomes.js';

export const VERIFIED: Texts = {
  it: 'Indirizzo verificato sui registri italiani',
  en: 'Address verified against the Italian registers',
  de: 'Adresse anhand der italienischen Register geprüft',
  fr: 'Adresse vérifiée sur les registres italiens',
  es: 'Dirección verificada con los registros italianos',
  nl: 'Adres gecontroleerd aan de hand van de Italiaanse registers',
  pt: 'Endereço verificado nos registos italianos',
  sv: 'Adressen kontrollerad mot de italienska registren',
  no: 'Adressen kontrollert mot de italienske registrene',
  fi: 'Osoite tarkistettu Italian rekistereistä',
  da: 'Adressen kontrolleret mod de italienske registre',
  is: 'Heimilisfang staðfest í ítölskum skrám',
  el: 'Η διεύθυνση ελέγχθηκε στα ιταλικά μητρώα',
};

/**
 * The head of an Italian answer whose outcome is a warning or an error (a municipality not found, too little data, a
 * street not registered): the registers were consulted, the address is not verified by them.
 */
export const CHECKED: Texts = {
  it: 'Indirizzo controllato sui registri italiani',
  en: 'Address checked against the Italian registers',
  de: 'Adresse mit den italienischen Registern abgeglichen',
  fr: 'Adresse contrôlée sur les registres italiens',
  es: 'Dirección comprobada con los registros italianos',
  nl: 'Adres vergeleken met de Italiaanse registers',
  pt: 'Endereço comparado com os registos italianos',
  sv: 'Adressen jämförd med de italienska registren',
  no: 'Adressen sammenlignet med de italienske registrene',
  fi: 'Osoitetta verrattu Italian rekistereihin',
  da: 'Adressen sammenlignet med de italienske registre',
  is: 'Heimilisfang borið saman við ítalskar skrár',
  el: 'Η διεύθυνση συγκρίθηκε με τα ιταλικά μητρώα',
};

/** Rule 4: a country without a register in service gets its postal form, nothing more. */
export const FORM_ONLY: Texts = {
  it: 'Indirizzo estero: messo nella forma postale del paese (CAP, abbreviazioni, maiuscole, ordine delle righe); via e numero civico non verificati',
  en: 'Foreign address: put in the country’s postal form (postcode, abbreviations, capitals, line order); street and house number not verified',
  de: 'Ausländische Adresse: in die Postform des Landes gebracht (Postleitzahl, Abkürzungen, Großschreibung, Zeilenfolge); Straße und Hausnummer nicht geprüft',
  fr: 'Adresse étrangère : mise dans la forme postale du pays (code postal, abréviations, majuscules, ordre des lignes) ; rue et numéro non vérifiés',
  es: 'Dirección extranjera: puesta en la forma postal del país (código postal, abreviaturas, mayúsculas, orden de líneas); calle y número no verificados',
  nl: 'Buitenlands adres: in de postvorm van het land gezet (postcode, afkortingen, hoofdletters, regelvolgorde); straat en huisnummer niet gecontroleerd',
  pt: 'Endereço estrangeiro: posto na forma postal do país (código postal, abreviaturas, maiúsculas, ordem das linhas); rua e número não verificados',
  sv: 'Utländsk adress: satt i landets postala form (postnummer, förkortningar, versaler, radordning); gata och husnummer inte kontrollerade',
  no: 'Utenlandsk adresse: satt i landets postform (postnummer, forkortelser, store bokstaver, linjerekkefølge); gate og husnummer ikke kontrollert',
  fi: 'Ulkomainen osoite: muutettu maan postimuotoon (postinumero, lyhenteet, suuraakkoset, rivijärjestys); katua ja talonumeroa ei tarkistettu',
  da: 'Udenlandsk adresse: sat i landets postform (postnummer, forkortelser, store bogstaver, linjefølge); gade og husnummer ikke kontrolleret',
  is: 'Erlent heimilisfang: sett í póstform landsins (póstnúmer, skammstafanir, hástafir, röð lína); gata og húsnúmer ekki staðfest',
  el: 'Διεύθυνση εξωτερικού: σε ταχυδρομική μορφή της χώρας (ΤΚ, συντομογραφίες, κεφαλαία, σειρά γραμμών)· οδός και αριθμός δεν επαληθεύτηκαν',
};

/**
 * The reason of a postal-form answer (spec, Contact rule 4: the message says only the form was worked): no
 * outcome code of the contract says it, so the label and reason do — never "Nothing to report" of an address
 * nobody verified. Also in a register country whose register does not hold the street.
 */
export const FORM_ONLY_REASON: Texts = {
  it: 'Solo messo nella forma postale del paese: via e numero civico non verificati',
  en: 'Only put in the country’s postal form: street and house number not verified',
  de: 'Nur in die Postform des Landes gebracht: Straße und Hausnummer nicht geprüft',
  fr: 'Seulement mise dans la forme postale du pays : rue et numéro non vérifiés',
  es: 'Solo puesta en la forma postal del país: calle y número no verificados',
  nl: 'Alleen in de postvorm van het land gezet: straat en huisnummer niet gecontroleerd',
  pt: 'Apenas posta na forma postal do país: rua e número não verificados',
  sv: 'Endast satt i landets postform: gata och husnummer inte kontrollerade',
  no: 'Bare satt i landets postform: gate og husnummer ikke kontrollert',
  fi: 'Vain muotoiltu maan postimuotoon: katua ja talonnumeroa ei tarkistettu',
  da: 'Kun sat i landets postform: vej og husnummer ikke kontrolleret',
  is: 'Aðeins sett á póstform landsins: gata og húsnúmer ekki staðfest',
  el: 'Μόνο σε ταχυδρομική μορφή της χώρας: οδός και αριθμός δεν επαληθεύτηκαν',
};

export const REGISTER_VERIFIED: Texts = {
  it: 'Indirizzo verificato sul registro nazionale del paese',
  en: 'Address verified against the national register of its country',
  de: 'Adresse anhand des nationalen Registers des Landes geprüft',
  fr: 'Adresse vérifiée sur le registre national du pays',
  es: 'Dirección verificada con el registro nacional del país',
  nl: 'Adres gecontroleerd aan de hand van het nationale register van het land',
  pt: 'Endereço verificado no registo nacional do país',
  sv: 'Adressen kontrollerad mot landets nationella register',
  no: 'Adressen kontrollert mot landets nasjonale register',
  fi: 'Osoite tarkistettu maan kansallisesta rekisteristä',
  da: 'Adressen kontrolleret mod landets nationale register',
  is: 'Heimilisfang staðfest í þjóðskrá landsins',
  el: 'Η διεύθυνση ελέγχθηκε στο εθνικό μητρώο της χώρας',
};

/** A foreign answer with a warning or an error, against the country's official register. */
export const REGISTER_CHECKED: Texts = {
  it: 'Indirizzo controllato sul registro nazionale del paese',
  en: 'Address checked against the national register of its country',
  de: 'Adresse mit dem nationalen Register des Landes abgeglichen',
  fr: 'Adresse contrôlée sur le registre national du pays',
  es: 'Dirección comprobada con el registro nacional del país',
  nl: 'Adres vergeleken met het nationale register van het land',
  pt: 'Endereço comparado com o registo nacional do país',
  sv: 'Adressen jämförd med landets nationella register',
  no: 'Adressen sammenlignet med landets nasjonale register',
  fi: 'Osoitetta verrattu maan kansalliseen rekisteriin',
  da: 'Adressen sammenlignet med landets nationale register',
  is: 'Heimilisfang borið saman við þjóðskrá landsins',
  el: 'Η διεύθυνση συγκρίθηκε με το εθνικό μητρώο της χώρας',
};

/**
 * A country whose addresses come from OpenStreetMap (it publishes no address register): a map its contributors keep,
 * never taken as complete, so never "verified".
 */
export const MAP_CHECKED: Texts = {
  it: 'Indirizzo controllato su una mappa collaborativa, non su un registro ufficiale',
  en: 'Address checked against a collaborative map, not an official register',
  de: 'Adresse mit einer gemeinschaftlich gepflegten Karte abgeglichen, nicht mit einem amtlichen Register',
  fr: 'Adresse contrôlée sur une carte collaborative, pas sur un registre officiel',
  es: 'Dirección comprobada con un mapa colaborativo, no con un registro oficial',
  nl: 'Adres vergeleken met een gezamenlijk bijgehouden kaart, niet met een officieel register',
  pt: 'Endereço comparado com um mapa colaborativo, não com um registo oficial',
  sv: 'Adressen jämförd med en gemensamt redigerad karta, inte med ett officiellt register',
  no: 'Adressen sammenlignet med et dugnadsbasert kart, ikke med et offisielt register',
  fi: 'Osoitetta verrattu yhteisön ylläpitämään karttaan, ei viralliseen rekisteriin',
  da: 'Adressen sammenlignet med et fællesskabskort, ikke med et officielt register',
  is: 'Heimilisfang borið saman við samvinnukort, ekki opinbera skrá',
  el: 'Η διεύθυνση συγκρίθηκε με συνεργατικό χάρτη, όχι με επίσημο μητρώο',
};

/** Verified only when nothing is left to check: every condition of the outcome is labelled ok (changes aside). */
export function verifiedOutcome(outcome: readonly string[]): boolean {
  const label = labelOf(outcome, CONTACT_OUTCOMES);
  return label === 'ok' || label === 'modified';
}

export const CITY_TYPE: Record<string, Texts> = {
  provincial_capital: {
    it: 'capoluogo di provincia', en: 'provincial capital', de: 'Provinzhauptstadt', fr: 'chef-lieu de province', es: 'capital de provincia',
    nl: 'provinciehoofdstad', pt: 'capital de província', sv: 'provinshuvudstad', no: 'provinshovedstad', fi: 'maakunnan pääkaupunki',
    da: 'provinshovedstad', is: 'héraðshöfuðborg', el: 'πρωτεύουσα επαρχίας',
  },
  municipality: {
    it: 'comune', en: 'municipality', de: 'Gemeinde', fr: 'commune', es: 'municipio', nl: 'gemeente', pt: 'município', sv: 'kommun',
    no: 'kommune', fi: 'kunta', da: 'kommune', is: 'sveitarfélag', el: 'δήμος',
  },
};

/** Italy's catalogue entry, resolved once (every Italian answer names the country). */
let italy: ReturnType<typeof countryByCode> | null = null;
export function italyEntry(): ReturnType<typeof countryByCode> {
  if (italy === null) italy = countryByCode('IT');
  return italy;
}
