/**
 * The English↔Italian mapping of the interface (spec, Versioning). Input: Italian keys, Italian option
 * values and common synonyms become English before validation. Output: with Italian, keys, enumerated
 * values and outcome codes become Italian. Everything in between speaks English.
 *
 * The words are tables: the ones every endpoint shares here (`SHARED_KEYS`), each capability's own in its
 * folder (`src/<capability>/keys.ts`), all given once at start by the registry (`useKeys`, called by
 * src/capabilities.ts) and merged into one mapping. src/http lists no capability itself.
 */
import { englishCode, italianCode } from './outcomes.js';

/** One table of Italian words: a capability's, or the shared one. */
export interface KeyTable {
  /** Field names, English → Italian, word for word from the spec's table. */
  fields?: Readonly<Record<string, string>>;
  /** Fields of ours that the spec's table does not name, in the same Italian style (answers only: the console labels the spec's). */
  ours?: Readonly<Record<string, string>>;
  /** Synonyms accepted on input (and in batch file headers) → the English field. */
  synonyms?: Readonly<Record<string, string>>;
  /** Option values, Italian → English, for the fields that carry them. */
  options?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Enumerated values answered in Italian, English → Italian, by the field that carries them. */
  values?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Fields whose values are outcome codes (answered with the Italian codes). */
  outcomeFields?: readonly string[];
}

/** The words every endpoint shares (envelope, jobs, credit, the fields several capabilities read and answer). */
export const SHARED_KEYS: KeyTable = {
  fields: {
    account: 'account',
    action: 'azione',
    method: 'metodo',
    metric: 'metrico',
    active: 'attiva',
    missing: 'mancano',
    address: 'indirizzo',
    modified: 'modificati',
    month: 'mese',
    addresses: 'indirizzi',
    after: 'dopo',
    municipality: 'comune',
    area: 'area',
    n_records: 'n_anagrafiche',
    async: 'asincrono',
    name_id: 'nome_id',
    name_original: 'nome_originale',
    before: 'prima',
    nearby: 'vicino',
    needed: 'necessarie',
    birth_date: 'data_nascita',
    normalized: 'normalizzato',
    not_found: 'non_trovati',
    note: 'nota',
    notes: 'note',
    number: 'numero',
    cadastral_code: 'catastale',
    numbers: 'numeri',
    occurrences: 'occorrenze',
    operations: 'elaborazioni',
    changed: 'modificato',
    other: 'altro',
    changes: 'modifiche',
    outcome: 'esito',
    charged: 'consumate',
    outcome_label: 'esito_label',
    check: 'controlla',
    outcomes: 'esiti',
    city: 'localita',
    city_key: 'localita_confronto',
    parsed: 'letto',
    phone: 'telefono',
    class: 'classe',
    code: 'codice',
    colour: 'colore',
    comments: 'commenti',
    place: 'luogo',
    conditions: 'condizioni',
    position: 'posizione',
    confidence: 'confidenza',
    postcode: 'cap',
    contact: 'contatto',
    contact_person: 'referente',
    presumed: 'presunto',
    counter: 'contatore',
    counters: 'contatori',
    countries: 'nazioni',
    country: 'nazione',
    province: 'provincia',
    country_code: 'nazione_iso2',
    country_original: 'nazione_originale',
    reason: 'motivo',
    created: 'creato',
    record_outcome: 'esito_record',
    credit: 'credito',
    dedupe: 'deduplica',
    detail: 'dettaglio',
    discarded: 'scartati',
    remaining: 'rimaste',
    district: 'quartiere',
    rows: 'righe',
    lines: 'righe_busta',
    done: 'fatte',
    duration_ms: 'durata_ms',
    short: 'breve',
    entries: 'schede',
    error: 'errore',
    size: 'taglia',
    exists: 'esiste',
    source: 'fonte',
    expiry: 'scadenza',
    specificity: 'specificita',
    field: 'campo',
    state: 'stato',
    first_name: 'nome',
    street: 'strada',
    foreign: 'esteri',
    street_id: 'via_id',
    street_name: 'toponimo',
    format: 'formato',
    found: 'trovato',
    street_type: 'dug',
    free: 'gratuite',
    full_name: 'nominativo',
    gender: 'sesso',
    suggestion: 'suggerimento',
    summary: 'riepilogo',
    syntax: 'sintassi',
    tax_code: 'codice_fiscale',
    house_number: 'civico',
    territory: 'territorio',
    text: 'testo',
    time_ms: 'tempo_ms',
    house_numbers: 'civici',
    to_check: 'da_controllare',
    iso2: 'codice_iso2',
    total: 'totali',
    iso3: 'codice_iso3',
    truncated: 'troncato',
    items: 'elementi',
    type: 'tipo',
    job: 'lavoro',
    language: 'lingua',
    types: 'tipi',
    languages: 'lingue',
    unresolved: 'non_risolti',
    last_name: 'cognome',
    last_on: 'ultimo_il',
    used: 'usate',
    valid: 'valida',
    left: 'residuo',
    value: 'valore',
    legacy_default: 'default_storico',
    warning: 'avviso',
    warnings: 'avvisi',
    light: 'leggere',
    long: 'lungo',
    long_name: 'nome_esteso',
    match: 'corrisponde',
    matches: 'abbinamenti',
  },
  ours: {
    options: 'opzioni',
    decoded: 'decodificato',
    others: 'altri',
    expires: 'scade',
    refunded: 'rimborsate',
    candidates: 'candidati',
  },
  options: {
    format: { nazionale: 'national', internazionale: 'international' },
    action: { genera: 'generate', valida: 'validate', estrai: 'extract', confronta: 'compare', seleziona: 'select', suggerisci: 'suggest' },
    foreign: { dichiarati: 'declared', rileva: 'detect' },
  },
  values: {
    confidence: { certain: 'certo', probable: 'probabile', ambiguous: 'ambiguo' },
    state: { queued: 'in_coda', running: 'in_corso', completed: 'completato', failed: 'fallito', cancelled: 'annullato', never_used: 'mai_usato', free: 'gratuito', free_used_up: 'gratuito_esaurito', active: 'attivo', awaiting_renewal: 'in_attesa_rinnovo', used_up: 'esaurito' },
    outcome_label: { ok: 'ok', modified: 'modificato', warning: 'avviso', error: 'errore' },
    format: { national: 'nazionale', international: 'internazionale' },
    action: { generate: 'genera', validate: 'valida', extract: 'estrai', compare: 'confronta', select: 'seleziona', suggest: 'suggerisci' },
    foreign: { declared: 'dichiarati', detect: 'rileva' },
    counter: { contact: 'contatto', dedupe: 'deduplica', light: 'leggere' },
    class: { mobile: 'cellulare', landline: 'fisso', special: 'speciale', foreign: 'estero' },
    type: { 'toll-free': 'numero_verde', 'premium rate': 'sovrapprezzo', 'shared cost': 'addebito_ripartito', 'public utility': 'pubblica_utilita' },
    source: { registry: 'registro' },
  },
  synonyms: {
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
  },
  outcomeFields: ['outcome', 'record_outcome'],
};

/** Every table merged: what the mapping functions read. */
interface Keys {
  /** English → Italian field names, the spec's and ours. */
  italianKey: Map<string, string>;
  /** English → Italian field names, the spec's only (the console's labels). */
  specKey: Map<string, string>;
  /** Italian names and synonyms → English. */
  englishField: Map<string, string>;
  optionsEn: Map<string, Map<string, string>>;
  italianValues: Map<string, Map<string, string>>;
  /** The Italian keys that differ from the English ones, as JSON strings (what the text path writes). */
  italianKeyJson: Map<string, string>;
  outcomeFields: Set<string>;
}

let keys: Keys | undefined;
/** englishKey's memory of the keys clients send (cleared when the tables are installed). */
const englishKeys = new Map<string, string>();

/** `into` gets every pair of `from`; a name given twice differently is a programming error, found at start. */
function mergeInto(into: Map<string, string>, from: Readonly<Record<string, string>> | undefined, what: string): void {
  for (const [k, v] of Object.entries(from ?? {})) {
    const known = into.get(k);
    if (known !== undefined && known !== v) throw new Error(`${what} ${k} defined twice differently (${known}, ${v})`);
    into.set(k, v);
  }
}

function mergeValues(into: Map<string, Map<string, string>>, from: KeyTable['values'], what: string): void {
  for (const [field, values] of Object.entries(from ?? {})) {
    let map = into.get(field);
    if (!map) into.set(field, (map = new Map()));
    mergeInto(map, values, `${what} of ${field}:`);
  }
}

/**
 * The capabilities' tables, given once at start by the registry (src/capabilities.ts), merged with the
 * shared one: installed before any body is read or answer written. The tables are read through maps: a key
 * or value named like a property of every object (`constructor`) is not one of theirs.
 */
export function useKeys(...tables: KeyTable[]): void {
  const all = [SHARED_KEYS, ...tables];
  const specKey = new Map<string, string>();
  const italianKey = new Map<string, string>();
  for (const t of all) mergeInto(specKey, t.fields, 'field');
  for (const t of all) mergeInto(italianKey, t.ours, 'field');
  for (const [en, it] of specKey) mergeInto(italianKey, { [en]: it }, 'field');
  const englishField = new Map<string, string>();
  for (const [en, it] of italianKey) mergeInto(englishField, { [it]: en }, 'Italian field');
  for (const t of all) mergeInto(englishField, t.synonyms, 'synonym');
  const optionsEn = new Map<string, Map<string, string>>();
  const italianValues = new Map<string, Map<string, string>>();
  for (const t of all) {
    mergeValues(optionsEn, t.options, 'option');
    mergeValues(italianValues, t.values, 'value');
  }
  keys = {
    italianKey,
    specKey,
    englishField,
    optionsEn,
    italianValues,
    italianKeyJson: new Map([...italianKey].filter(([en, it]) => en !== it).map(([en, it]) => [en, JSON.stringify(it)])),
    outcomeFields: new Set(all.flatMap((t) => t.outcomeFields ?? [])),
  };
  englishKeys.clear();
}

function installed(): Keys {
  if (!keys) throw new Error('no key tables: import src/capabilities.js (the registry) first');
  return keys;
}

/** A field's Italian name as the spec's table gives it (undefined for a field it does not name). */
export function specFieldName(key: string): string | undefined {
  return installed().specKey.get(key);
}

/** Every field the spec's table names, English → Italian. */
export function specFields(): ReadonlyMap<string, string> {
  return installed().specKey;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An input key as the service understands it: Italian and synonyms become English; case and hyphens folded. */
export function englishKey(key: string): string {
  let english = englishKeys.get(key);
  if (english === undefined) {
    const k = key.trim().toLowerCase().replace(/[\s-]+/g, '_');
    english = installed().englishField.get(k) ?? k;
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
  const { optionsEn } = installed();
  // for…in, not Object.entries: no array of pairs per object (a parsed body has own keys only)
  for (const rawKey in value) {
    const key = englishKey(rawKey);
    let v = toEnglishInput(value[rawKey]);
    const values = optionsEn.get(key);
    if (values && typeof v === 'string') v = values.get(v.trim().toLowerCase()) ?? v;
    // an English key wins over its Italian twin when a client sends both
    if (!(key in out) || rawKey === key) out[key] = v;
  }
  return out;
}

/**
 * A response body with Italian keys, Italian enumerated values and Italian outcome codes. The tables are
 * read through maps: a key or value named like a property of every object (`constructor`) is not one of theirs.
 */
export function toItalianOutput(value: unknown, parentKey = ''): unknown {
  return italianOutput(installed(), value, parentKey);
}

function italianOutput(k: Keys, value: unknown, parentKey: string): unknown {
  if (Array.isArray(value)) {
    if (k.outcomeFields.has(parentKey)) return value.map((c) => (typeof c === 'string' ? italianCode(c) : c));
    return value.map((v) => italianOutput(k, v, parentKey));
  }
  if (!isObject(value)) {
    if (typeof value === 'string') return k.italianValues.get(parentKey)?.get(value) ?? value;
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // outcome counts are keyed by label kinds: translate those keys too
    out[k.italianKey.get(key) ?? key] = italianOutput(k, v, key);
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
    const t = new ItalianText(text, installed());
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

  constructor(
    private readonly text: string,
    private readonly keys: Keys,
  ) {}

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
      const values = asIs ? undefined : this.keys.italianValues.get(parentKey);
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
      const italian = asIs ? undefined : this.keys.italianKeyJson.get(key);
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
    const outcomes = !asIs && this.keys.outcomeFields.has(parentKey);
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
  return installed().italianValues.get(field)?.get(value) ?? value;
}

/** A CSV header or field name in the response language. */
export function fieldName(key: string, italian: boolean): string {
  return italian ? (installed().italianKey.get(key) ?? key) : key;
}

/** Outcome codes from an Italian client (e.g. in a saved batch file) read back as English. */
export function englishOutcome(codes: readonly string[]): string[] {
  return codes.map(englishCode);
}

export type { Json };
