import { capability as contact } from '../contact/service.js';
import type { ProcessContext } from '../http/capability.js';
import * as core from '../native.js';
import type { HouseNumberEntry, MunicipalityHit, StreetHit } from '../native.js';
import type { Hint, Parsed } from './schema.js';
import { boundedCache, boundedMemo } from './memo.js';
import type { OfferedStreet } from './session.js';

/** The free text as people write it: street, house number, postcode, city in one field. */
export interface ReadQuery {
  street: string;
  house_number: string | null;
  postcode: string | null;
  city: string | null;
  province: string | null;
}

const NUMBER = /^\d{1,5}(?:[/-]?[a-z]{1,3}|\/\d{1,3})?$/i;
const SUFFIX_WORD = /^(bis|ter|quater|[a-z])$/i;
const POSTCODE = /^\d{5}$/;
const PROVINCE_CODE = /^[a-z]{2}$/i;

function words(s: string): string[] {
  return s.split(/\s+/).filter((w) => w !== '');
}

/**
 * A light split of what was typed: `(BO)` and a trailing two-letter code are the province; a
 * five-digit token the postcode; a number after at least two words of street the house number
 * (`12`, `12a`, `12/b`, `12 bis`); what follows the number or the postcode, or comes after a
 * comma, the city. `via 4 novembre` keeps its number: a number right after the first word is a name.
 */
export function readQuery(q: string): ReadQuery {
  let text = q.replace(/\s+/g, ' ').trim();
  let province: string | null = null;
  const paren = /\(\s*([a-z]{2})\s*\)/i.exec(text);
  if (paren?.[1]) {
    province = paren[1].toUpperCase();
    text = text.replace(paren[0], ' ');
  }
  const segments = text.split(',').map((s) => s.trim());
  const first = segments.shift() ?? '';
  const tokens = words(first);
  const rest: string[] = [];
  for (const seg of segments) rest.push(...words(seg), ',');

  let postcode: string | null = null;
  let houseNumber: string | null = null;
  let cityWords: string[] = [];
  let streetWords = tokens;

  // postcode anywhere in the first segment: what follows it is the city
  const pcAt = tokens.findIndex((t, i) => i > 0 && POSTCODE.test(t));
  if (pcAt > 0) {
    postcode = tokens[pcAt] ?? null;
    cityWords = tokens.slice(pcAt + 1);
    streetWords = tokens.slice(0, pcAt);
  }
  // the house number: the last number token preceded by two words or more
  for (let i = streetWords.length - 1; i >= 2; i--) {
    const t = streetWords[i] ?? '';
    if (!NUMBER.test(t)) continue;
    const after = streetWords.slice(i + 1);
    let n = t;
    let tail = after;
    if (after[0] && SUFFIX_WORD.test(after[0]) && after[0].length > 1) {
      n = `${t}/${after[0]}`;
      tail = after.slice(1);
    }
    // a number followed by words is a house number only when those words are the city (checked by the caller)
    houseNumber = n.toUpperCase();
    if (tail.length > 0 && cityWords.length === 0) cityWords = tail;
    else if (tail.length > 0) {
      houseNumber = null;
      continue;
    }
    streetWords = streetWords.slice(0, i);
    break;
  }
  // later comma segments: a number alone is the house number, a postcode the postcode, words the city
  const restWords = rest.filter((w) => w !== ',');
  const leftover: string[] = [];
  for (const w of restWords) {
    if (!postcode && POSTCODE.test(w)) postcode = w;
    else if (!houseNumber && NUMBER.test(w) && leftover.length === 0) houseNumber = w.toUpperCase();
    else leftover.push(w);
  }
  if (leftover.length > 0) cityWords = leftover;
  // a trailing province code after the city: `bologna bo`
  if (!province && cityWords.length >= 2 && PROVINCE_CODE.test(cityWords[cityWords.length - 1] ?? '')) {
    province = (cityWords.pop() ?? '').toUpperCase();
  }
  return { street: streetWords.join(' '), house_number: houseNumber, postcode, city: cityWords.length ? cityWords.join(' ') : null, province };
}

/**
 * The free text of a foreign country read by its postal format (the core's `readAddress`, the same
 * reader as the contact's): `Bundesplatz 3, 3011 Bern` is street, number, postcode and city, not a
 * house number 3011. The fields given are the caller's.
 */
export function readForeignQuery(country: string, q: string, city?: string | null, postcode?: string | null): ReadQuery {
  const parts = core.readAddressSync({ country, address: q, city: city ?? '', postcode: postcode ?? '' });
  if (!parts) return readQuery(q);
  return {
    street: parts.street,
    house_number: parts.number === '' ? null : parts.number.toUpperCase(),
    postcode: parts.postcode === '' ? null : parts.postcode,
    city: parts.city === '' ? null : parts.city,
    province: parts.region === '' ? null : parts.region,
  };
}

export function parsedOf(r: ReadQuery): Parsed {
  return { street: r.street || null, house_number: r.house_number, postcode: r.postcode };
}

/** What suggestions need of a municipality the core found (`findMunicipalities`). */
export type Municipality = Pick<core.Municipality, 'cadastral_code' | 'name' | 'province' | 'postcodes'>;

/**
 * Municipality lookups of this process: a typing session names the same city on every keystroke and the
 * register does not change while the service runs.
 */
const municipalityMemo = boundedMemo<MunicipalityHit[]>(5_000);

function municipalityFind(query: { name?: string; postcode?: string; province?: string; cadastral_code?: string }): Promise<MunicipalityHit[]> {
  return municipalityMemo(JSON.stringify([query.name, query.postcode, query.province, query.cadastral_code]), () => core.findMunicipalities(query));
}

export async function findMunicipalities(query: { name?: string; postcode?: string; province?: string; cadastral_code?: string }): Promise<Municipality[]> {
  const hits = await municipalityFind(query);
  const out: Municipality[] = [];
  for (const h of hits) {
    if (!h.current) continue;
    if (out.some((m) => m.cadastral_code === h.cadastral_code)) continue;
    out.push({ cadastral_code: h.cadastral_code, name: h.current.name, province: h.current.province, postcodes: h.current.postcodes });
  }
  return out;
}

/** The municipalities the call is about: city (from the field or the text), else postcode. */
export async function placeOf(city: string | null, postcode: string | null, province: string | null): Promise<Municipality[]> {
  const prov = province && PROVINCE_CODE.test(province.trim()) ? province.trim().toUpperCase() : undefined;
  let found: Municipality[] = [];
  if (city) {
    found = await findMunicipalities({ name: city, ...(prov ? { province: prov } : {}) });
    if (found.length > 1 && postcode) {
      const narrowed = found.filter((m) => m.postcodes.includes(postcode));
      if (narrowed.length > 0) found = narrowed;
    }
  } else if (postcode) {
    found = await findMunicipalities({ postcode, ...(prov ? { province: prov } : {}) });
  }
  return found.slice(0, 5);
}



const LOWER = new Set(['DI', 'DEL', 'DELLA', 'DELLO', 'DEI', 'DEGLI', 'DELLE', 'DE', 'DA', 'DAL', 'DALLA', 'E', 'ED', 'IN', 'SUL', 'SULLA', 'AL', 'ALLA', 'AI', 'AGLI', 'ALLE', 'LA', 'LE', 'IL', 'LO', 'GLI', 'I', 'A']);

const LOWER_ELIDED = new Set(['D', 'L', 'DELL', 'DALL', 'NELL', 'SULL', 'ALL', 'COLL']);

/**
 * Names as shown, kept: every hint of every call shows one, the same streets on every keystroke of a session,
 * and the case rules below cost microseconds a name (regular expressions over Unicode letters).
 */
const shownNames = boundedCache<string>(50_000);

/** `VIA DEL FAGGIOLO` → `Via del Faggiolo` (particles lower case except first; `D'AZEGLIO` → `D'Azeglio`). */
export function displayName(upper: string): string {
  return shownNames(upper, () => caseRules(upper));
}

function caseRules(upper: string): string {
  return upper
    .split(' ')
    .filter((w) => w !== '')
    .map((w, i) => {
      if (i > 0 && LOWER.has(w)) return w.toLowerCase();
      if (/^[IVXLC]+$/.test(w) && w.length <= 5 && i > 0) return w; // roman numerals: XX Settembre
      const titled = w.toLowerCase().replace(/(^|['’-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());
      // an elided particle stays lower case after the first word: Via dell'Indipendenza
      const elided = /^(\p{L}+)(['’])(.*)$/u.exec(titled);
      if (i > 0 && elided?.[1] && LOWER_ELIDED.has(elided[1].toUpperCase())) return `${elided[1].toLowerCase()}${elided[2]}${elided[3]}`;
      return titled;
    })
    .join(' ');
}

export function streetHintId(hit: { cadastral_code: string; street_id: number; index: number }): string {
  return hit.street_id > 0 ? String(hit.street_id) : `${hit.cadastral_code}-${hit.index}`;
}

/** Municipalities whose streets the core has loaded (it keeps them for the life of the process). */
const loaded = new Set<string>();

/**
 * One municipality's street search: on this thread once its streets are loaded (tens of microseconds, less
 * than the hop to the pool; answered as it is, not as a promise), in the pool the first time (loading a
 * city's streets takes milliseconds).
 */
function streetsIn(cadastral: string, query: string, limit: number): StreetHit[] | Promise<StreetHit[]> {
  if (loaded.has(cadastral)) return core.searchStreetsSync({ cadastral_code: cadastral, query, limit });
  return core.searchStreets({ cadastral_code: cadastral, query, limit }).then((hits) => {
    loaded.add(cadastral);
    return hits;
  });
}

/** Streets matching what was typed, in the place's municipalities (or the province's), closest first. */
export async function searchStreets(street: string, place: Municipality[], province: string | null, limit = 10): Promise<{ hints: Hint[]; offered: Record<string, OfferedStreet> }> {
  const hits: (StreetHit & { m: Municipality | null })[] = [];
  if (place.length > 0) {
    for (const m of place) {
      const found = streetsIn(m.cadastral_code, street, limit);
      // the hits are this call's own (decoded for it): each carries its municipality, no copy
      for (const h of Array.isArray(found) ? found : await found) hits.push(Object.assign(h, { m }));
    }
  } else if (province && PROVINCE_CODE.test(province.trim())) {
    const list = await core.searchStreets({ province: province.trim().toUpperCase(), query: street, limit });
    const names = new Map<string, Municipality | null>();
    for (const h of list) {
      if (!names.has(h.cadastral_code)) {
        const [m] = await findMunicipalities({ cadastral_code: h.cadastral_code });
        names.set(h.cadastral_code, m ?? null);
      }
      hits.push(Object.assign(h, { m: names.get(h.cadastral_code) ?? null }));
    }
  }
  // the engine (a whole contact verification) only when nothing begins as typed: a prefix hit means
  // the user is still typing a name the search already follows
  if (hits.length < 3 && !hits.some((h) => h.distance === 0) && place.length === 1 && place[0]) {
    const m = place[0];
    const resolved = await resolvedByEngine(street, m);
    if (resolved && !hits.some((h) => h.street_id === resolved.street_id && h.cadastral_code === resolved.cadastral_code)) hits.push({ ...resolved, m });
  }
  hits.sort((a, b) => a.distance - b.distance);
  const hints: Hint[] = [];
  const offered: Record<string, OfferedStreet> = {};
  const shown = hits.slice(0, limit);
  // a name offered more than once (Via Roma of two frazioni, or of two municipalities) carries its locality
  const times = new Map<string, number>();
  for (const h of shown) times.set(`${h.street_type} ${h.name}`, (times.get(`${h.street_type} ${h.name}`) ?? 0) + 1);
  for (const h of shown) {
    const id = streetHintId(h);
    const municipality = h.m?.name ?? h.cadastral_code;
    const provinceCode = h.m?.province ?? '';
    const repeated = (times.get(`${h.street_type} ${h.name}`) ?? 0) > 1;
    const locality = repeated && h.locality ? displayName(h.locality.toUpperCase()) : null;
    hints.push({ type: 'street', id, name: displayName(`${h.street_type} ${h.name}`), municipality, area: locality ?? (provinceCode || null), source: 'registry' });
    offered[id] = { cadastral_code: h.cadastral_code, index: h.index, street_type: h.street_type, name: h.name, municipality, province: provinceCode };
  }
  return { hints, offered };
}


/** The parts of a contact answer the street search reads. */
interface EngineAnswer {
  outcome: string[];
  normalized?: { address?: string } | null;
  territory?: { street_id?: string; cadastral_code?: string } | null;
}

/**
 * The contact capability's `run` for the street search: its answer's codes and ids only are read, so the
 * language is any (English) and no data dir is named (the register is the process's).
 */
const ENGINE_CONTEXT: ProcessContext = { language: 'en', dataDir: '', allowPrivateNetwork: false };

/**
 * What the street search misses (a later word of the name: `corso garibaldi` for Corso Giuseppe
 * Garibaldi, `indipendenza` for Via dell'Indipendenza), the contact engine's street resolution finds:
 * asked only when the search gave fewer than three streets and none beginning as typed, and only a single,
 * certain street is taken. Through the contact capability's one `run`, as a single call goes (a place seen
 * before is verified in the event-loop turn's batch, a new one on the pool). Measured against the core
 * called directly (its internal answer, as until issue 31): the same street, address, outcome and
 * municipality for 12 of 12 Bologna names, ~3× the CPU (50 → 146 µs a call, the answer written and read
 * as the contact endpoint's), paid only on such a miss, once per text while the phase is remembered
 * (`streetsMemo`).
 */
async function resolvedByEngine(street: string, m: Municipality): Promise<StreetHit | undefined> {
  if (street.trim().length < 4) return undefined;
  const item = { address: street, city: m.name, province: m.province, country_code: 'IT', precision: 3, preserve_original: false, postal_form: false, foreign: 'declared' } as const;
  const [r] = (await contact.run([item], ENGINE_CONTEXT)) as unknown as EngineAnswer[];
  const id = r?.territory?.street_id;
  const name = r?.normalized?.address;
  if (!r || !id || !name || r.outcome.some((c) => c.startsWith('STREET_') && c !== 'STREET_TYPE_MISSING') || r.territory?.cadastral_code !== m.cadastral_code) return undefined;
  const exact = await streetsIn(m.cadastral_code, name, 5);
  const hit = exact.find((h) => String(h.street_id) === id);
  return hit ? { ...hit, distance: 1 } : undefined;
}

/** A street's numbers, asked on every keystroke of the house-number phase (read only below). */
const numbersMemo = boundedMemo<HouseNumberEntry[]>(2_000);

function numberText(e: HouseNumberEntry): string {
  return e.s ? `${e.n}/${e.s}` : String(e.n);
}

/** `12 b`, `12B`, `12-b`, `12 / B` → `12/B`: the register's form. */
export function houseNumberKey(typed: string): string {
  const m = /^\s*(\d+)\s*[/-]?\s*([a-z0-9]*)\s*$/i.exec(typed);
  if (!m) return typed.trim().toUpperCase();
  return m[2] ? `${Number(m[1])}/${m[2].toUpperCase()}` : String(Number(m[1]));
}

/**
 * The house-number phase: the street's numbers starting with what was typed (12 → 12, 12/A, 120...),
 * in order, and whether the number as typed exists.
 */
export async function houseNumbers(street: OfferedStreet, streetId: string, typed: string, limit = 10): Promise<{ hints: Hint[]; exists: boolean; known: number }> {
  const all = await numbersMemo(JSON.stringify([street.cadastral_code, street.index]), () => core.streetHouseNumbers({ cadastral_code: street.cadastral_code, index: street.index }));
  const key = houseNumberKey(typed);
  const digits = /^\d+/.exec(key)?.[0] ?? '';
  const seen = new Set<string>();
  const hints: Hint[] = [];
  let exists = false;
  for (const e of all) {
    const text = numberText(e);
    if (text === key) exists = true;
    if (seen.has(text)) continue;
    const matches = key.includes('/') ? text.startsWith(key) : digits !== '' && String(e.n).startsWith(digits);
    if (!matches || hints.length >= limit) continue;
    seen.add(text);
    hints.push({ type: 'house_number', id: `${streetId}:${text}`, name: text, municipality: street.municipality, area: e.d || null, source: 'registry' });
  }
  // the exact number first, then the others in register order
  hints.sort((a, b) => Number(b.name === key) - Number(a.name === key));
  return { hints, exists, known: all.length };
}

let attributionCache: Promise<string[]> | undefined;
const attributionMemo = boundedMemo<string>(5_000);

/** The register's attribution to show beside the suggestions: ANNCSU, and the municipal source where it gives the numbers. */
export function attributionFor(municipalities: string[]): Promise<string> {
  return attributionMemo(JSON.stringify(municipalities), async () => {
    if (!attributionCache) {
      const asked = core.registerInfo().then((info) => info.attributions);
      attributionCache = asked;
      asked.catch(() => {
        if (attributionCache === asked) attributionCache = undefined;
      });
    }
    const attributions = await attributionCache;
    const anncsu = attributions.find((a) => /ANNCSU/.test(a) && /onData/.test(a)) ?? attributions.find((a) => /ANNCSU/.test(a));
    const names = new Set(municipalities.map((m) => core.native.foldText(m)));
    const local = attributions.filter((a) => {
      const m = /^Comune di ([^–(-]+?)\s*[–(-]/.exec(a);
      return m?.[1] ? names.has(core.native.foldText(m[1])) : false;
    });
    return [anncsu, ...local].filter((a): a is string => !!a).join('; ');
  });
}

/** The streets phase of an Italian call: what the answer carries and the streets the session remembers. */
export interface StreetsPhase {
  hints: Hint[];
  parsed: Parsed;
  offered: Record<string, OfferedStreet>;
  attribution: string;
}

/** What the call gives besides `q`, trimmed; undefined where blank (then read from `q`). */
export interface PlaceFields {
  city: string | undefined;
  postcode: string | undefined;
  province: string | undefined;
}

/**
 * The streets phase: the place (the fields, else what `q` names), the streets matching what was typed
 * there, or the municipality typed alone. The same text in the same place answers the same while the
 * service runs, and every session types the same prefixes: answers are kept (`boundedMemo`), shared by
 * the calls that ask them, so nobody may change one (the answer is serialised, never edited).
 */
export function streetsPhase(q: string, fields: PlaceFields): Promise<StreetsPhase> {
  return streetsMemo(JSON.stringify([q, fields.city, fields.postcode, fields.province]), () => computeStreetsPhase(q, fields));
}

const streetsMemo = boundedMemo<StreetsPhase>(10_000);

async function computeStreetsPhase(q: string, fields: PlaceFields): Promise<StreetsPhase> {
  const read = readQuery(q);
  const city = fields.city ?? read.city;
  const postcode = fields.postcode ?? read.postcode;
  const province = fields.province ?? read.province;
  const parsed = { ...parsedOf(read), postcode };
  let place = await placeOf(city, postcode, province);
  let hints: Hint[] = [];
  let offered: Record<string, OfferedStreet> = {};
  if (read.street !== '' && (place.length > 0 || province)) {
    const found = await searchStreets(read.street, place, province);
    hints = found.hints;
    offered = found.offered;
  } else if (place.length === 0 && read.street !== '') {
    // no place yet: what was typed may be the municipality itself
    place = await findMunicipalities({ name: read.street });
    hints = place.slice(0, 10).map((m) => ({ type: 'municipality', id: m.cadastral_code, name: m.name, municipality: m.name, area: m.province, source: 'registry' }));
    if (hints.length > 0) parsed.street = null;
  }
  return { hints, parsed, offered, attribution: await attributionFor([...new Set(hints.map((h) => h.municipality))]) };
}
