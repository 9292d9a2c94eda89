/**
 * Labelled dedupe data: real Italian first names and surnames (shared/data/contact/names) on real
 * house numbers of Bologna and Alessandria (shared/data/it/civici), perturbed into duplicates the
 * way customer lists get dirty. Every record carries its entity, so precision and recall can be
 * counted. Deterministic for a given seed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { parse } from 'csv-parse/sync';

import { defaultSourceDir } from '../src/config.js';

export interface LabelledRecord {
  id: number;
  entity: number;
  /** What was done to this copy (empty for the first copy of an entity). */
  perturbations: string[];
  record: Record<string, unknown>;
}

interface Place {
  street: string;
  number: string;
  postcode: string;
  city: string;
  province: string;
}

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase());

function csvRows(file: string, delimiter: string): Record<string, string>[] {
  const raw = file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file);
  return parse(raw, { columns: true, delimiter, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
}

export interface Sources {
  firstNames: { name: string; gender: 'M' | 'F' }[];
  surnames: string[];
  nicknames: Map<string, string[]>;
  places: Place[];
}

export function loadSources(source = defaultSourceDir()): Sources {
  const names = path.join(source, 'contact', 'names');
  const births = csvRows(path.join(names, 'it_firstnames_gender_births_italiatools.csv'), ',')
    .filter((r) => r.gender_signal === '1' && /^[A-Z]+$/.test(r.name ?? ''))
    .map((r) => ({ name: titleCase(r.name ?? ''), m: Number(r.male_weight), f: Number(r.female_weight) }))
    .sort((a, b) => b.m + b.f - (a.m + a.f))
    .slice(0, 800);
  const firstNames = births.map((b) => ({ name: b.name, gender: (b.m >= b.f ? 'M' : 'F') as 'M' | 'F' }));
  const surnames = readFileSync(path.join(names, 'it_surnames_cognomix.txt'), 'utf8')
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => /^[A-Za-z]{4,}$/.test(s));
  const nicknames = new Map<string, string[]>();
  for (const r of csvRows(path.join(names, 'it_hypocoristics.csv'), ',')) {
    if (r.ambiguo === '1') continue;
    for (const full of (r.nomi_completi ?? '').split('|')) nicknames.set(full, [...(nicknames.get(full) ?? []), r.forma_breve ?? '']);
  }
  const civici = path.join(source, 'it', 'civici');
  const places: Place[] = [];
  for (const r of csvRows(path.join(civici, 'bologna', 'civici_2012.csv.gz'), ',')) {
    if (!r.DENOMINAZI || !r.CIVICO || r.DATA_CESS) continue;
    places.push({ street: titleCase(r.DENOMINAZI), number: `${r.CIVICO}${r.SUBCIV ? `/${r.SUBCIV}` : ''}`, postcode: r.CAP ?? '', city: 'Bologna', province: 'BO' });
  }
  for (const r of csvRows(path.join(civici, 'alessandria', 'numeri-civici.csv.gz'), ';')) {
    if (!r.DUF || !r.Civico) continue;
    places.push({ street: `${r.DUG} ${r.DUF}`, number: `${r.Civico}${r.Esponente ? `/${r.Esponente}` : ''}`, postcode: r.CAP ?? '', city: 'Alessandria', province: 'AL' });
  }
  return { firstNames, surnames, nicknames, places };
}

interface Foreign {
  line: string;
  postcode: string;
  city: string;
  country: string;
}

/** Addresses abroad written the country's way: number first in FR, GB, US; after in DE, ES. */
const FOREIGN: { country: string; city: string; postcode: string; streets: string[]; numberFirst: boolean }[] = [
  { country: 'FR', city: 'Marseille', postcode: '13001', streets: ['rue de la République', 'boulevard Longchamp', 'rue Paradis'], numberFirst: true },
  { country: 'FR', city: 'Toulouse', postcode: '31000', streets: ['rue Alsace-Lorraine', 'allée Jean Jaurès', 'rue de Metz'], numberFirst: true },
  { country: 'GB', city: 'Manchester', postcode: 'M1 1AE', streets: ['Oxford Road', 'Deansgate', 'Portland Street'], numberFirst: true },
  { country: 'US', city: 'Philadelphia', postcode: '19103', streets: ['Walnut Street', 'Chestnut Street', 'Spruce Street'], numberFirst: true },
  { country: 'DE', city: 'Stuttgart', postcode: '70173', streets: ['Königstraße', 'Marienstraße', 'Hauptstätter Straße'], numberFirst: false },
  { country: 'ES', city: 'Valencia', postcode: '46002', streets: ['Calle de Colón', 'Calle de la Paz', 'Avenida del Oeste'], numberFirst: false },
];

function foreignPlace(r: () => number): Foreign {
  const c = FOREIGN[Math.floor(r() * FOREIGN.length)]!;
  const street = c.streets[Math.floor(r() * c.streets.length)]!;
  const n = String(1 + Math.floor(r() * 120));
  return { line: c.numberFirst ? `${n} ${street}` : `${street} ${n}`, postcode: c.postcode, city: c.city, country: c.country };
}

const ABBREVIATIONS: [RegExp, string][] = [
  [/^Via /i, 'V. '],
  [/^Viale /i, 'V.le '],
  [/^Piazza /i, 'P.zza '],
  [/^Corso /i, 'C.so '],
  [/^Largo /i, 'L.go '],
  [/^Vicolo /i, 'V.lo '],
  [/^Strada /i, 'Str. '],
  [/ San /i, ' S. '],
  [/ Santa /i, ' S. '],
];

function typo(word: string, r: () => number): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(r() * (word.length - 2));
  const kind = Math.floor(r() * 3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1); // deletion
  if (kind === 1) return word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2); // transposition
  const letters = 'aeiourstnlcm';
  return word.slice(0, i) + letters[Math.floor(r() * letters.length)] + word.slice(i + 1); // substitution
}

const mobile = (r: () => number) => `3${Math.floor(r() * 5 + 2)}${String(Math.floor(r() * 1e8)).padStart(8, '0')}`;
const landline = (place: Place, r: () => number) => `${place.city === 'Bologna' ? '051' : '0131'}${String(Math.floor(r() * 1e6)).padStart(6, '0')}`;

/**
 * `entities` people; a share of them get 1 to 3 dirty copies; some share an address with a family
 * member, some have a namesake elsewhere (both are hard negatives: never the same person).
 */
export function generate(src: Sources, entities: number, seed = 7, dupShare = 0.3): LabelledRecord[] {
  const r = rng(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(r() * list.length)] as T;
  const out: LabelledRecord[] = [];
  let entity = 0;
  const person = (last?: string, place?: Place, home?: string, first?: { name: string; gender: 'M' | 'F' }) => {
    const f = first ?? pick(src.firstNames);
    const p = place ?? pick(src.places);
    const l = last ?? titleCase(pick(src.surnames));
    // a namesake (same first and last name) has a mailbox of their own: a number after the name
    const mailbox = r() < 0.5 ? `${f.name}.${l}${first ? Math.floor(r() * 90 + 10) : ''}@example.it`.toLowerCase() : null;
    const birth = `${1935 + Math.floor(r() * 70)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
    return { first: f.name, gender: f.gender, last: l, place: p, mobile: mobile(r), home: home ?? landline(p, r), email: mailbox, birth, foreign: null as Foreign | null };
  };
  type Person = ReturnType<typeof person>;
  // Common names one letter from a common name of the other gender (Mario/Maria).
  const crossGender = new Map<string, { name: string; gender: 'M' | 'F' }>();
  for (const a of src.firstNames)
    for (const b of src.firstNames)
      if (a.gender !== b.gender && a.name.length === b.name.length && a.name.slice(0, -1) === b.name.slice(0, -1)) crossGender.set(a.name, b);
  // Half the records carry a birth date (Italian or ISO form), as customer lists do.
  const clean = (p: Person, withBirth = r() < 0.5): Record<string, unknown> => ({
    first_name: p.first,
    last_name: p.last,
    ...(p.foreign
      ? { address: p.foreign.line, postcode: p.foreign.postcode, city: p.foreign.city, country_code: p.foreign.country }
      : {
          address: `${p.place.street}${p.place.number ? ` ${p.place.number}` : ''}`,
          postcode: p.place.postcode,
          city: p.place.city,
          province: p.place.province,
        }),
    phone: p.mobile,
    ...(p.email ? { email: p.email } : {}),
    ...(withBirth ? { birth_date: r() < 0.5 ? p.birth : p.birth.split('-').reverse().join('/') } : {}),
  });
  const push = (e: number, record: Record<string, unknown>, perturbations: string[] = []) => out.push({ id: out.length + 1, entity: e, perturbations, record });

  const dirty = (p: Person): { record: Record<string, unknown>; done: string[] } => {
    const rec = clean(p);
    if (p.foreign) {
      // abroad: the city misspelt, the rest as written
      rec.city = typo(String(rec.city), r);
      return { record: rec, done: ['foreign_city_typo'] };
    }
    const done: string[] = [];
    const ops: (() => void)[] = [
      () => {
        const nick = src.nicknames.get(p.first);
        if (nick?.length) {
          rec.first_name = pick(nick);
          done.push('nickname');
        }
      },
      () => {
        [rec.first_name, rec.last_name] = [rec.last_name, rec.first_name];
        done.push('swapped_names');
      },
      () => {
        rec.last_name = typo(String(rec.last_name), r);
        done.push('typo_last_name');
      },
      () => {
        rec.first_name = typo(String(rec.first_name), r);
        done.push('typo_first_name');
      },
      () => {
        let a = String(rec.address);
        for (const [re, short] of ABBREVIATIONS) a = a.replace(re, short);
        rec.address = a;
        done.push('abbreviation');
      },
      () => {
        rec.address = String(rec.address).toUpperCase().replace(/ (\d+)/, ', $1');
        rec.last_name = String(rec.last_name).toUpperCase();
        done.push('case_punctuation');
      },
      () => {
        delete rec.postcode;
        done.push('missing_postcode');
      },
      () => {
        rec.phones = [{ type: pick(['Cellulare', 'mobile', 'Casa', 'Lavoro']), value: `+39 ${p.mobile.slice(0, 3)} ${p.mobile.slice(3)}` }];
        delete rec.phone;
        done.push('phone_other_slot');
      },
      () => {
        rec.address = String(rec.address).replace(/ (\d+)\/(\w+)$/, ' $1$2').replace(/ (\d+)$/, ' n. $1');
        done.push('house_number_form');
      },
      () => {
        rec.address = String(rec.address).replace(/[ ,]+(n\. )?\d+.*$/, '');
        done.push('missing_house_number');
      },
      () => {
        // moved: another address, same mobile
        const q = pick(src.places);
        Object.assign(rec, { address: `${q.street} ${q.number}`, postcode: q.postcode, city: q.city, province: q.province });
        done.push('moved_same_phone');
      },
      () => {
        // Yasmin/Ysain: two edits in the first name, everything else shared
        const f = String(rec.first_name);
        if (f.length >= 5) {
          rec.first_name = typo(typo(f, r), r);
          done.push('first_name_two_edits');
        }
      },
      () => {
        // Luca/Luc: a short name one letter short
        const f = String(rec.first_name);
        if (f.length >= 4 && f.length <= 5) {
          rec.first_name = f.slice(0, -1);
          done.push('short_first_name_cut');
        }
      },
      () => {
        // moved, surname misspelt, only the birth date in common
        const q = pick(src.places);
        Object.assign(rec, { address: `${q.street} ${q.number}`, postcode: q.postcode, city: q.city, province: q.province, phone: mobile(r), birth_date: p.birth });
        delete rec.email;
        delete rec.emails;
        delete rec.phones;
        rec.last_name = typo(String(rec.last_name), r);
        done.push('moved_surname_typo_same_birth');
      },
      () => {
        if (rec.email) {
          rec.emails = [{ type: 'Casa', value: String(rec.email).toUpperCase() }];
          delete rec.email;
          done.push('email_other_slot');
        }
      },
    ];
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) pick(ops)();
    return { record: rec, done };
  };

  for (let i = 0; i < entities; i++) {
    const p = person();
    const e = ++entity;
    const kind = r();
    const tags: string[] = [];
    if (kind < 0.04) {
      // no house number on any copy
      p.place = { ...p.place, number: '' };
      tags.push('missing_house_number_both');
    } else if (kind < 0.07) {
      p.foreign = foreignPlace(r);
    }
    const copies: { record: Record<string, unknown>; done: string[] }[] = [];
    if (r() < dupShare) {
      const n = 1 + Math.floor(r() * (r() < 0.8 ? 1 : 3));
      for (let c = 0; c < n; c++) copies.push(dirty(p));
    }
    // a copy known only by its birth date needs the date on the first record too
    const fatherSon = r() < 0.02;
    const needsBirth = fatherSon || copies.some((c) => c.done.includes('moved_surname_typo_same_birth'));
    push(e, clean(p, needsBirth || r() < 0.5));
    for (const c of copies) push(e, c.record, [...c.done, ...tags]);
    if (fatherSon) {
      // father and son: same name, same address and landline, born 28 years apart
      const son = { ...p, mobile: mobile(r), email: null, birth: `${Number(p.birth.slice(0, 4)) + 28}${p.birth.slice(4)}`, foreign: null };
      push(++entity, { ...clean(son, true), phones: [{ type: 'Casa', value: p.home }] }, ['father_son']);
    }
    const twin = crossGender.get(p.first);
    if (twin && r() < 0.25) {
      // Mario/Maria: one letter apart across genders, same surname and address
      const sib = person(p.last, p.place, p.home, twin);
      push(++entity, { ...clean(sib), phones: [{ type: 'Casa', value: p.home }] }, ['cross_gender_one_letter']);
    }
    if (r() < 0.08) {
      // family member: same surname, address and landline, another first name
      let other = pick(src.firstNames);
      while (other.name === p.first) other = pick(src.firstNames);
      const fam = person(p.last, p.place, p.home, other);
      push(++entity, { ...clean(fam), phones: [{ type: 'Casa', value: p.home }] }, ['family_member']);
    }
    if (r() < 0.03) {
      // namesake: same name elsewhere
      const twin = person(p.last, undefined, undefined, { name: p.first, gender: p.gender });
      push(++entity, clean(twin), ['namesake']);
    }
  }
  // shuffle, so duplicates are not neighbours in the list
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j] as LabelledRecord, out[i] as LabelledRecord];
  }
  out.forEach((x, i) => {
    x.id = i + 1;
    x.record = { id: i + 1, ...x.record };
  });
  return out;
}

/**
 * One half of the sources: places and surnames split by position, so a set built on half 1 shares
 * no street address or surname with the set the rules were tuned on (half 0). First names are
 * shared: the cross-gender pairs (Mario/Maria) need both genders.
 */
export function half(src: Sources, which: 0 | 1): Sources {
  const keep = <T>(list: T[]) => list.filter((_, i) => i % 2 === which);
  return { ...src, surnames: keep(src.surnames), places: keep(src.places) };
}

/** Flat records into address-book contacts: typed lists, a second (work) address for some. */
export function addressBook(records: Record<string, unknown>[], places: Place[]): Record<string, unknown>[] {
  const r = rng(3);
  // 300 workplaces: colleagues share a work address, as in a company's address book
  const offices = Array.from({ length: 300 }, () => places[Math.floor(r() * places.length)]!);
  return records.map((rec) => {
    const { address, postcode, city, province, phone, email, phones, emails, ...rest } = rec;
    const out: Record<string, unknown> = {
      ...rest,
      addresses: [{ type: r() < 0.7 ? 'home' : 'Casa', address, postcode, city, province }],
      phones: [...(phone ? [{ type: 'cell', value: phone }] : []), ...((phones as unknown[]) ?? [])],
      emails: [...(email ? [email] : []), ...((emails as unknown[]) ?? [])],
    };
    if (r() < 0.3) {
      const o = offices[Math.floor(r() * offices.length)]!;
      (out.addresses as unknown[]).push({ type: 'work', address: `${o.street} ${o.number}`, postcode: o.postcode, city: o.city });
    }
    return out;
  });
}
