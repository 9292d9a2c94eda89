/**
 * The English↔Italian mapping of the interface (spec, Versioning). Input: Italian keys, Italian option
 * values and common synonyms become English before validation. Output: with Italian, keys, enumerated
 * values and outcome codes become Italian. Everything in between speaks English.
 */
import { englishCode, italianCode } from './outcomes.js';

/** Field names, English → Italian, word for word from the spec. */
export const FIELD_IT: Readonly<Record<string, string>> = {
  account: 'account',
  members: 'membri',
  action: 'azione',
  method: 'metodo',
  activated_on: 'attivato_il',
  metric: 'metrico',
  active: 'attiva',
  min_level: 'livello_minimo',
  active_packs: 'attivi',
  missing: 'mancano',
  address: 'indirizzo',
  modified: 'modificati',
  address_key: 'indirizzo_confronto',
  month: 'mese',
  addresses: 'indirizzi',
  monthly_cap_eur: 'tetto_mese_eur',
  after: 'dopo',
  multiple_postcodes: 'multicap',
  age: 'eta',
  municipality: 'comune',
  agreement: 'consenso',
  municipality_code: 'comune_codice',
  ambiguous_year: 'anno_ambiguo',
  municipality_code_type: 'comune_codice_tipo',
  area: 'area',
  n_records: 'n_anagrafiche',
  async: 'asincrono',
  name_id: 'nome_id',
  auto_topup: 'auto_ricarica',
  name_original: 'nome_originale',
  available: 'disponibile',
  national_number: 'nazionale',
  before: 'prima',
  nearby: 'vicino',
  belfiore_code: 'codice_belfiore',
  needed: 'necessarie',
  birth_country: 'nazione_nascita',
  needs_topup: 'da_ricaricare',
  birth_date: 'data_nascita',
  network: 'rete',
  birth_place: 'comune_nascita',
  normalized: 'normalizzato',
  birth_place_name: 'luogo_nascita',
  normalized_postal: 'normalizzato_postale',
  birth_province: 'provincia_nascita',
  not_found: 'non_trovati',
  born_abroad: 'nato_estero',
  note: 'nota',
  bought: 'comprati',
  notes: 'note',
  building: 'edificio',
  number: 'numero',
  cadastral_code: 'catastale',
  numbers: 'numeri',
  canonical_address: 'indirizzo_canonico',
  occurrences: 'occorrenze',
  canonical_city: 'localita_canonica',
  operations: 'elaborazioni',
  care_of: 'presso',
  operator: 'operatore',
  certificate_ok: 'certificato_ok',
  origin: 'origine',
  changed: 'modificato',
  other: 'altro',
  changes: 'modifiche',
  outcome: 'esito',
  charged: 'consumate',
  outcome_label: 'esito_label',
  check: 'controlla',
  outcomes: 'esiti',
  check_digit: 'controllo',
  overall_cap_eur: 'tetto_globale_eur',
  city: 'localita',
  packs: 'pacchetti',
  city_key: 'localita_confronto',
  parsed: 'letto',
  city_passes: 'cicli_localita',
  phase: 'fase',
  city_type: 'localita_tipo',
  phone: 'telefono',
  class: 'classe',
  phone2: 'telefono2',
  code: 'codice',
  phone3: 'telefono3',
  colour: 'colore',
  phones: 'telefoni',
  comments: 'commenti',
  place: 'luogo',
  conditions: 'condizioni',
  position: 'posizione',
  confidence: 'confidenza',
  postcode: 'cap',
  confirmed: 'confermato',
  postcode_check: 'cap_verifica',
  consolidate: 'consolida',
  precision: 'precisione',
  contact: 'contatto',
  preserve_original: 'preserva_originale',
  contact_person: 'referente',
  presumed: 'presunto',
  corrected_from: 'corretta_da',
  processed: 'lavorato',
  counter: 'contatore',
  processed_at: 'datalav',
  counters: 'contatori',
  profession: 'qualifica',
  countries: 'nazioni',
  provenance: 'provenienza',
  country: 'nazione',
  province: 'provincia',
  country_code: 'nazione_iso2',
  provincial_capital: 'capoluogo',
  country_original: 'nazione_originale',
  reachable: 'raggiungibile',
  country_prefix: 'prefisso_paese',
  reason: 'motivo',
  created: 'creato',
  record_outcome: 'esito_record',
  credit: 'credito',
  records: 'anagrafiche',
  dedupe: 'deduplica',
  redirects: 'redirect',
  detail: 'dettaglio',
  reference: 'riferimento',
  differences: 'differenze',
  reference_id: 'riferimento_id',
  discarded: 'scartati',
  remaining: 'rimaste',
  disposable: 'usa_e_getta',
  renews_on: 'si_rinnova_il',
  district: 'quartiere',
  reset_on: 'si_azzerano_il',
  domain_checked: 'dominio_verificato',
  rows: 'righe',
  lines: 'righe_busta',
  domain_exists: 'dominio_esiste',
  salutation: 'saluto',
  done: 'fatte',
  save: 'salva',
  duration_ms: 'durata_ms',
  segment_passes: 'cicli_arcostradale',
  e164: 'formato_e164',
  session: 'sessione',
  education: 'titolo_studio',
  short: 'breve',
  entries: 'schede',
  singles: 'singoli',
  error: 'errore',
  size: 'taglia',
  exists: 'esiste',
  source: 'fonte',
  expiry: 'scadenza',
  specificity: 'specificita',
  explanations: 'spiegazioni',
  spent_month_eur: 'speso_mese_eur',
  extension: 'estensione',
  spent_overall_month_eur: 'speso_globale_mese_eur',
  field: 'campo',
  state: 'stato',
  final_url: 'url_finale',
  states: 'stati',
  first_name: 'nome',
  street: 'strada',
  foreign: 'esteri',
  street_id: 'via_id',
  foreign_address: 'estero',
  street_name: 'toponimo',
  formal_salutation: 'saluto_formale',
  street_passes: 'cicli_toponimo',
  format: 'formato',
  street_proper_name: 'duf',
  found: 'trovato',
  street_type: 'dug',
  free: 'gratuite',
  sub_address: 'subindirizzo',
  free_forever: 'gratis_per_sempre',
  sub_address_confirmed: 'subindirizzo_confermato',
  full_name: 'nominativo',
  subject_type: 'tipo_soggetto',
  gender: 'sesso',
  subscription: 'abbonamento',
  gender_source: 'fonte_sesso',
  suffix: 'esponente',
  generic: 'generica',
  suggestion: 'suggerimento',
  group: 'gruppo',
  summary: 'riepilogo',
  groups: 'gruppi',
  supported: 'supportato',
  hamlet: 'frazione',
  syntax: 'sintassi',
  hints: 'suggerimenti',
  tax_code: 'codice_fiscale',
  homocode: 'omocodo',
  tax_code_outcome: 'codice_fiscale_esito',
  house_number: 'civico',
  territory: 'territorio',
  house_number_label: 'civico_label',
  text: 'testo',
  house_number_verified: 'civico_verificato',
  time_ms: 'tempo_ms',
  house_numbers: 'civici',
  title: 'titolo',
  informal_salutation: 'saluto_informale',
  to_check: 'da_controllare',
  iso2: 'codice_iso2',
  total: 'totali',
  iso3: 'codice_iso3',
  town: 'citta',
  istat_code: 'istat',
  truncated: 'troncato',
  items: 'elementi',
  type: 'tipo',
  job: 'lavoro',
  type_normalized: 'tipo_norm',
  language: 'lingua',
  types: 'tipi',
  languages: 'lingue',
  unresolved: 'non_risolti',
  last_name: 'cognome',
  url_normalized: 'url_normalizzato',
  last_on: 'ultimo_il',
  used: 'usate',
  last_used: 'ultimo_uso',
  valid: 'valida',
  left: 'residuo',
  value: 'valore',
  legacy_default: 'default_storico',
  warning: 'avviso',
  level: 'livello',
  warnings: 'avvisi',
  light: 'leggere',
  website: 'sito',
  long: 'lungo',
  website2: 'sito2',
  long_name: 'nome_esteso',
  website3: 'sito3',
  main_record: 'principale',
  websites: 'siti',
  match: 'corrisponde',
  zoned: 'zonato',
  matches: 'abbinamenti',
};

/** Fields of ours that the spec's table does not name, in the same Italian style. */
const EXTRA_FIELD_IT: Readonly<Record<string, string>> = {
  options: 'opzioni',
  decoded: 'decodificato',
  current_name: 'nome_attuale',
  current_province: 'provincia_attuale',
  reasons: 'motivi',
  pairs: 'coppie',
  score: 'punteggio',
  others: 'altri',
  added: 'aggiunti',
  removed_groups: 'gruppi_rimossi',
  expires: 'scade',
  explanation: 'spiegazione',
  refunded: 'rimborsate',
  candidates: 'candidati',
  debug: 'diagnosi',
  repairs: 'riparazioni',
  city_match: 'corrispondenza_localita',
  street_step: 'passo_strada',
  edits: 'correzioni',
};

/** Synonyms accepted on input (and in batch file headers). */
const SYNONYMS: Readonly<Record<string, string>> = {
  zip: 'postcode',
  zipcode: 'postcode',
  zip_code: 'postcode',
  postal_code: 'postcode',
  surname: 'last_name',
  family_name: 'last_name',
  given_name: 'first_name',
  phone_number: 'phone',
  telephone: 'phone',
  date_of_birth: 'birth_date',
  dob: 'birth_date',
  place_of_birth: 'birth_place',
  e_mail: 'email',
  mail: 'email',
  codice_fiscale: 'tax_code',
  codicefiscale: 'tax_code',
  cf: 'tax_code',
  nome_cognome: 'full_name',
};

/** Option values, Italian → English, for the fields that carry them. */
const VALUE_EN: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  format: { nazionale: 'national', internazionale: 'international' },
  action: { genera: 'generate', valida: 'validate', estrai: 'extract', confronta: 'compare', seleziona: 'select', suggerisci: 'suggest' },
  foreign: { dichiarati: 'declared', rileva: 'detect' },
  min_level: { certo: 'certain', probabile: 'probable', ambiguo: 'ambiguous' },
};

/** Enumerated values answered in Italian, by the field that carries them. */
const VALUE_IT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  level: { certain: 'certo', probable: 'probabile', ambiguous: 'ambiguo' },
  min_level: { certain: 'certo', probable: 'probabile', ambiguous: 'ambiguo' },
  confidence: { certain: 'certo', probable: 'probabile', ambiguous: 'ambiguo' },
  state: {
    queued: 'in_coda', running: 'in_corso', completed: 'completato', failed: 'fallito', cancelled: 'annullato',
    never_used: 'mai_usato', free: 'gratuito', free_used_up: 'gratuito_esaurito', active: 'attivo',
    awaiting_renewal: 'in_attesa_rinnovo', used_up: 'esaurito',
  },
  outcome_label: { ok: 'ok', modified: 'modificato', warning: 'avviso', error: 'errore' },
  format: { national: 'nazionale', international: 'internazionale' },
  action: { generate: 'genera', validate: 'valida', extract: 'estrai', compare: 'confronta', select: 'seleziona', suggest: 'suggerisci' },
  foreign: { declared: 'dichiarati', detect: 'rileva' },
  counter: { contact: 'contatto', dedupe: 'deduplica', light: 'leggere' },
  class: { mobile: 'cellulare', landline: 'fisso', special: 'speciale', foreign: 'estero' },
  type: { 'toll-free': 'numero_verde', 'premium rate': 'sovrapprezzo', 'shared cost': 'addebito_ripartito', 'public utility': 'pubblica_utilita' },
  subject_type: { natural_person: 'persona_fisica', company: 'societa', organisation: 'organizzazione' },
  gender_source: { written: 'scritto', title: 'titolo', married_name: 'cognome_da_sposata', first_name: 'nome', legal_form: 'forma_giuridica' },
  phase: { streets: 'vie', house_numbers: 'civici' },
  source: { registry: 'registro' },
};

const FIELD_OUT_IT: Readonly<Record<string, string>> = { ...EXTRA_FIELD_IT, ...FIELD_IT };

const FIELD_EN: Readonly<Record<string, string>> = Object.fromEntries([
  ...Object.entries(FIELD_OUT_IT).map(([en, it]) => [it, en]),
  ...Object.entries(SYNONYMS),
]);

/** Fields whose values are outcome codes. */
const OUTCOME_FIELDS = new Set(['outcome', 'record_outcome', 'tax_code_outcome']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const englishKeys = new Map<string, string>();

/** An input key as the service understands it: Italian and synonyms become English; case and hyphens folded. */
export function englishKey(key: string): string {
  let english = englishKeys.get(key);
  if (english === undefined) {
    const k = key.trim().toLowerCase().replace(/[\s-]+/g, '_');
    english = FIELD_EN[k] ?? k;
    // clients send the same few keys on every call: remembered, within a bound (keys are client text)
    if (englishKeys.size >= 10_000) englishKeys.clear();
    englishKeys.set(key, english);
  }
  return english;
}

/** Italian keys, synonyms and Italian option values of a request body, recursively, become English. */
export function toEnglishInput(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toEnglishInput);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  // for…in, not Object.entries: no array of pairs per object (a parsed body has own keys only)
  for (const rawKey in value) {
    const key = englishKey(rawKey);
    let v = toEnglishInput(value[rawKey]);
    const values = VALUE_EN[key];
    if (values && typeof v === 'string') v = values[v.trim().toLowerCase()] ?? v;
    // an English key wins over its Italian twin when a client sends both
    if (!(key in out) || rawKey === key) out[key] = v;
  }
  return out;
}

const ITALIAN_KEY = new Map(Object.entries(FIELD_OUT_IT));
const ITALIAN_VALUES = new Map(Object.entries(VALUE_IT).map(([field, values]) => [field, new Map(Object.entries(values))]));

/** The Italian keys that differ from the English ones, as JSON strings (what the text path writes). */
const ITALIAN_KEY_JSON = new Map([...ITALIAN_KEY].filter(([en, it]) => en !== it).map(([en, it]) => [en, JSON.stringify(it)]));

/**
 * A response body with Italian keys, Italian enumerated values and Italian outcome codes. The tables are
 * read through maps: a key or value named like a property of every object (`constructor`) is not one of theirs.
 */
export function toItalianOutput(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) {
    if (OUTCOME_FIELDS.has(parentKey)) return value.map((c) => (typeof c === 'string' ? italianCode(c) : c));
    return value.map((v) => toItalianOutput(v, parentKey));
  }
  if (!isObject(value)) {
    if (typeof value === 'string') return ITALIAN_VALUES.get(parentKey)?.get(value) ?? value;
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // outcome counts are keyed by label kinds: translate those keys too
    out[ITALIAN_KEY.get(key) ?? key] = toItalianOutput(v, key);
  }
  return out;
}

/**
 * `JSON.stringify(toItalianOutput(JSON.parse(text)))` worked on the text itself, for an answer written as
 * text (a single contact call, src/http/result-text.ts): the keys, enumerated values and outcome codes of
 * compact JSON (no white space, as `JSON.stringify` and the core write it) become Italian, every other byte
 * is copied: ~4.4 µs for a contact answer against ~12 µs to parse it into objects, walk them and write them
 * again (`http-cpu contact-it`, 3 pairs: 69.5–72.3 µs of event loop a call and 12.6–13.0k req/s, against
 * 77–81 µs and 11.0–11.7k). The same value once parsed (strings the text escapes stay escaped); text of any
 * other shape is translated the long way.
 */
export function italianJson(text: string): string {
  try {
    const t = new ItalianText(text);
    const end = t.value(0, '', false);
    if (end === text.length) return t.done();
  } catch (error) {
    if (!(error instanceof NotCompact)) throw error;
  }
  return JSON.stringify(toItalianOutput(JSON.parse(text)));
}

/** The text is not compact JSON as expected: translated the long way. */
class NotCompact extends Error {}

/** One pass over an answer's text: copied in spans, with the translated keys and values spliced in. */
class ItalianText {
  /** What is written so far (a rope: V8 joins it once, when it is sent). */
  private out = '';
  /** The text before this index is in `out` (or replaced). */
  private copied = 0;

  constructor(private readonly text: string) {}

  done(): string {
    return this.out + this.text.slice(this.copied);
  }

  /** `[from, to)` of the text replaced by `by`. */
  private splice(from: number, to: number, by: string): void {
    this.out += this.text.slice(this.copied, from) + by;
    this.copied = to;
  }

  /** The index after the string that opens at `i` (its closing quote included). */
  private stringEnd(i: number): number {
    const text = this.text;
    for (let q = text.indexOf('"', i + 1); q !== -1; q = text.indexOf('"', q + 1)) {
      let slashes = 0;
      while (text.charCodeAt(q - 1 - slashes) === 92 /* backslash */) slashes++;
      if (slashes % 2 === 0) return q + 1;
    }
    throw new NotCompact();
  }

  /** The string value of `[i, end)` (its quotes included). */
  private stringAt(i: number, end: number): string {
    const raw = this.text.slice(i + 1, end - 1);
    return raw.includes('\\') ? (JSON.parse(this.text.slice(i, end)) as string) : raw;
  }

  /** The string at `i`, replaced by its translation where `translate` gives another: its end. */
  private string(i: number, translate: ((value: string) => string | undefined) | undefined): number {
    const end = this.stringEnd(i);
    if (translate === undefined) return end;
    const value = this.stringAt(i, end);
    const italian = translate(value);
    if (italian !== undefined && italian !== value) this.splice(i, end, JSON.stringify(italian));
    return end;
  }

  /**
   * The value at `i` under the key `parentKey` (as `toItalianOutput`'s): its end. `asIs`: an element of an
   * outcome array that is not a string, which `toItalianOutput` leaves as it is.
   */
  value(i: number, parentKey: string, asIs: boolean): number {
    const c = this.text.charCodeAt(i);
    if (c === 123 /* { */) return this.object(i, asIs);
    if (c === 91 /* [ */) return this.array(i, parentKey, asIs);
    if (c === 34 /* " */) {
      const values = asIs ? undefined : ITALIAN_VALUES.get(parentKey);
      return this.string(i, values && ((v) => values.get(v)));
    }
    // a number, true, false or null: up to the next delimiter
    let end = i;
    while (end < this.text.length) {
      const d = this.text.charCodeAt(end);
      if (d === 44 /* , */ || d === 125 /* } */ || d === 93 /* ] */) break;
      if (d === 32 || d === 10 || d === 13 || d === 9 || d === 34 || d === 123 || d === 91 || d === 58) throw new NotCompact();
      end++;
    }
    if (end === i) throw new NotCompact();
    return end;
  }

  private object(i: number, asIs: boolean): number {
    const text = this.text;
    let at = i + 1;
    if (text.charCodeAt(at) === 125 /* } */) return at + 1;
    for (;;) {
      if (text.charCodeAt(at) !== 34) throw new NotCompact();
      const keyEnd = this.stringEnd(at);
      if (text.charCodeAt(keyEnd) !== 58 /* : */) throw new NotCompact();
      const key = this.stringAt(at, keyEnd);
      const italian = asIs ? undefined : ITALIAN_KEY_JSON.get(key);
      if (italian !== undefined) this.splice(at, keyEnd, italian);
      at = this.value(keyEnd + 1, key, asIs);
      const d = text.charCodeAt(at);
      if (d === 125 /* } */) return at + 1;
      if (d !== 44 /* , */) throw new NotCompact();
      at++;
    }
  }

  private array(i: number, parentKey: string, asIs: boolean): number {
    const text = this.text;
    const outcomes = !asIs && OUTCOME_FIELDS.has(parentKey);
    let at = i + 1;
    if (text.charCodeAt(at) === 93 /* ] */) return at + 1;
    for (;;) {
      if (outcomes && text.charCodeAt(at) === 34) {
        at = this.string(at, italianCode);
      } else {
        at = this.value(at, parentKey, asIs || outcomes);
      }
      const d = text.charCodeAt(at);
      if (d === 93 /* ] */) return at + 1;
      if (d !== 44 /* , */) throw new NotCompact();
      at++;
    }
  }
}

/** An enumerated value of `field` as Italian answers write it (the value itself where it has no Italian form). */
export function italianValue(field: string, value: string): string {
  return ITALIAN_VALUES.get(field)?.get(value) ?? value;
}

/** A CSV header or field name in the response language. */
export function fieldName(key: string, italian: boolean): string {
  return italian ? (ITALIAN_KEY.get(key) ?? key) : key;
}

/** Outcome codes from an Italian client (e.g. in a saved batch file) read back as English. */
export function englishOutcome(codes: readonly string[]): string[] {
  return codes.map(englishCode);
}

export type { Json };
