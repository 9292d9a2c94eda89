/**
 * The ways Italian customer files write an address, applied to a real address of the register.
 * Shared by the accuracy evaluation (`contact-eval.ts`, one table row per kind) and the speed
 * bench (`contact.bench.ts`, a third of its input written these ways).
 */

import type { SampledAddress } from '../src/native.js';

/** A real address drawn from the register (`sampleStreets`). */
export type Sampled = SampledAddress;

export interface Input {
  address: string;
  postcode: string;
  city: string;
  province: string;
}

/** Deterministic pseudo-random numbers, so two runs perturb alike. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TYPE_SHORT: Record<string, string> = {
  VIA: 'V.', PIAZZA: 'P.zza', VIALE: 'V.le', CORSO: 'C.so', LARGO: 'L.go', PIAZZALE: 'P.le', VICOLO: 'Vic.',
  LOCALITA: 'Loc.', FRAZIONE: 'Fraz.', STRADA: 'Str.', CONTRADA: 'C.da', TRAVERSA: 'Trav.', PIAZZETTA: 'P.tta',
};
const WORD_SHORT: Record<string, string> = { SAN: 'S.', SANTA: 'S.', SANTO: 'S.', GENERALE: 'Gen.', DOTTOR: 'Dott.', PROFESSOR: 'Prof.', FRATELLI: 'F.lli' };
/** The type people confuse with the registered one. */
const WRONG_TYPE: Record<string, string> = { VIA: 'Viale', VIALE: 'Via', PIAZZA: 'Piazzale', PIAZZALE: 'Piazza', CORSO: 'Via', LARGO: 'Piazza', VICOLO: 'Via', STRADA: 'Via' };
/** Common given names, written as an initial in customer files (`G. Mazzini`). */
const GIVEN_NAMES = new Set(
  ('GIUSEPPE GIOVANNI ANTONIO FRANCESCO LUIGI CARLO PIETRO PAOLO MARIO GIACOMO ALESSANDRO VITTORIO UMBERTO ' +
    'GIORGIO ENRICO FEDERICO GUGLIELMO LEONARDO MICHELE NICOLA ANDREA DOMENICO GAETANO GIULIO ALDO ALFREDO ' +
    'AUGUSTO BENEDETTO CESARE EMILIO ERNESTO FILIPPO GABRIELE GUIDO LORENZO LUCA MARCO MATTEO RAFFAELE ' +
    'RICCARDO ROBERTO SALVATORE SANDRO SILVIO STEFANO TOMMASO UGO VINCENZO ANNA MARIA GIOVANNA TERESA ' +
    'ANGELO BRUNO CAMILLO DANTE EDOARDO ETTORE FERDINANDO GIAN GINO IGNAZIO MASSIMO OTTAVIO PIERO RENATO').split(' '),
);
const SURNAMES = ['Rossi', 'Bianchi', 'Ferrari', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Marino'];

/** How people type the register's capitals: `Via Giuseppe Garibaldi`. */
export function titled(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s'(-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
    .replace(/\b(Di|Del|Della|Dei|Degli|Delle|De|Da|E)\b/g, (w) => w.toLowerCase());
}

function typo(word: string, r: () => number): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(r() * (word.length - 2));
  const op = Math.floor(r() * 3);
  if (op === 0) return word.slice(0, i) + word.slice(i + 1); // deletion
  if (op === 1) return word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2); // transposition
  const letters = 'aeiourtnls';
  const c = letters[Math.floor(r() * letters.length)] ?? 'a';
  return word.slice(0, i) + (c === word[i]?.toLowerCase() ? 'x' : c) + word.slice(i + 1); // substitution
}

function longestAt(words: string[]): number {
  let at = 0;
  words.forEach((w, i) => {
    if (w.length > (words[at] ?? '').length) at = i;
  });
  return at;
}

function typoInLongest(text: string, r: () => number, times = 1): string {
  const words = text.split(' ');
  const at = longestAt(words);
  for (let k = 0; k < times; k++) words[at] = typo(words[at] ?? '', r);
  return words.join(' ');
}

type Perturb = (s: Sampled, r: () => number, other: Sampled, i: number) => Input;

function numberOf(s: Sampled): string {
  return s.number ?? String(1 + (s.street_id % 40));
}

function street(s: Sampled): string {
  return `${titled(s.street_type)} ${titled(s.name)}`;
}

function base(s: Sampled): Input {
  return { address: `${street(s)} ${numberOf(s)}`, postcode: s.postcode, city: s.city, province: s.province };
}

/** `12/A` written the ways lists write numbers: `12 a`, `12A`, `n. 12/a`, `nr.12 A`, `civ. 12`, `12 / 3`. */
function numberForm(n: string, i: number): string {
  const [head, suffix] = n.split('/');
  const s = suffix ?? '';
  const lower = s.toLowerCase();
  if (/^\d+$/.test(s)) {
    // a fraction (`12/3`) keeps its slash, in any spacing
    return [`${head}/${s}`, `${head} / ${s}`, `n. ${head}/${s}`, `nr.${head}/ ${s}`, `civ. ${head}/${s}`, `${head} /${s}`][i % 6] as string;
  }
  switch (i % 6) {
    case 0:
      return s ? `${head} ${lower}` : `n. ${head}`;
    case 1:
      return s ? `${head}${s}` : `nr.${head}`;
    case 2:
      return s ? `n. ${head}/${lower}` : `civ. ${head}`;
    case 3:
      return s ? `nr.${head} ${s}` : `N° ${head}`;
    case 4:
      return s ? `civ. ${head} ${lower}` : `n.${head}`;
    default:
      return s ? `${head} / ${s}` : `nr. ${head}`;
  }
}

export const PERTURBATIONS: Record<string, Perturb> = {
  // earlier kinds
  clean: (s) => base(s),
  abbreviation: (s) => {
    const type = TYPE_SHORT[s.street_type] ?? titled(s.street_type);
    const name = s.name
      .split(' ')
      .map((w) => WORD_SHORT[w] ?? titled(w))
      .join(' ');
    return { ...base(s), address: `${type} ${name} ${numberOf(s)}` };
  },
  typo: (s, r) => ({ ...base(s), address: `${titled(s.street_type)} ${typoInLongest(titled(s.name), r)} ${numberOf(s)}` }),
  no_postcode: (s) => ({ ...base(s), postcode: '' }),
  wrong_postcode: (s, _r, other) => ({ ...base(s), postcode: other.postcode || '00100' }),
  no_province: (s) => ({ ...base(s), province: '' }),
  word_order: (s) => {
    const words = titled(s.name).split(' ');
    const swapped = words.length >= 2 ? [...words.slice(1), words[0]].join(' ') : words.join(' ');
    return { ...base(s), address: `${titled(s.street_type)} ${swapped} ${numberOf(s)}` };
  },
  lower_case: (s) => {
    const b = base(s);
    return { ...b, address: b.address.toLowerCase(), city: b.city.toLowerCase(), province: b.province.toLowerCase() };
  },
  sub_address: (s) => ({ ...base(s), address: `${base(s).address}, scala B, int. 4` }),
  comma_number: (s) => ({ ...base(s), address: `${street(s)}, ${numberOf(s)}` }),
  no_type: (s) => ({ ...base(s), address: `${titled(s.name)} ${numberOf(s)}` }),
  first_word_dropped: (s) => {
    const words = titled(s.name).split(' ');
    const rest = words.length >= 2 ? words.slice(1).join(' ') : words.join(' ');
    return { ...base(s), address: `${titled(s.street_type)} ${rest} ${numberOf(s)}` };
  },
  accents: (s) => {
    const b = base(s);
    const accented = b.address.replace(/([aeiou])'(\s|$)/gi, (_, v: string, end: string) => `${({ a: 'à', e: 'è', i: 'ì', o: 'ò', u: 'ù' } as Record<string, string>)[v.toLowerCase()] ?? v}${end}`);
    return { ...b, address: accented };
  },
  city_typo: (s, r) => ({ ...base(s), city: typoInLongest(s.city, r) }),
  // issue 11: field repair
  city_with_postcode_province: (s, _r, _o, i) => ({
    ...base(s),
    postcode: '',
    province: '',
    city: [`${s.postcode} ${s.city} (${s.province})`, `${s.postcode} ${s.city} ${s.province}`, `${s.city} (${s.province_name})`, `${s.postcode} - ${s.city.toUpperCase()}`][i % 4]?.replace(/^\s*-?\s*/, '') ?? s.city,
  }),
  city_in_address: (s, _r, _o, i) => ({
    address: [
      `${base(s).address} ${s.city}`,
      `${base(s).address} - ${s.city} (${s.province})`,
      `${base(s).address}, ${s.postcode} ${s.city} ${s.province}`.replace(',  ', ', '),
      `${base(s).address} ${s.postcode} ${s.city} (${s.province}) Italia`.replace('  ', ' '),
    ][i % 4] as string,
    postcode: '',
    city: '',
    province: '',
  }),
  city_repeated_in_address: (s, _r, _o, i) => ({
    ...base(s),
    address: i % 2 ? `${base(s).address} ${s.city.toUpperCase()}` : `${base(s).address}, ${s.postcode} ${s.city}`.replace(',  ', ', '),
  }),
  province_name: (s) => ({ ...base(s), province: s.province_name }),
  care_of: (s, _r, _o, i) => {
    const who = SURNAMES[i % SURNAMES.length] ?? 'Rossi';
    const forms = [`c/o ${who} ${base(s).address}`, `presso ${who}, ${base(s).address}`, `${base(s).address} c/o ${who}`, `C.O. ${who} - ${base(s).address}`];
    return { ...base(s), address: forms[i % forms.length] as string };
  },
  building_floor_door: (s, _r, _o, i) => {
    const forms = [
      `${base(s).address} scala B piano 2 int. 5`,
      `Pal. C ${base(s).address}`,
      `${base(s).address} Edificio 3 Sc. A`,
      `${base(s).address} p. 1 int 4`,
      `Scala A, ${base(s).address}`,
      `${base(s).address} int. 7 piano terra`,
    ];
    return { ...base(s), address: forms[i % forms.length] as string };
  },
  // issue 11: number forms
  number_first: (s, _r, _o, i) => ({ ...base(s), address: i % 2 ? `${numberOf(s)} ${street(s)}` : `${numberOf(s)}, ${street(s)}` }),
  number_markers: (s, _r, _o, i) => ({ ...base(s), address: `${street(s)} ${numberForm(numberOf(s), i)}` }),
  number_markers_comma: (s, _r, _o, i) => ({ ...base(s), address: `${street(s)}, ${numberForm(numberOf(s), i + 3)}` }),
  glued: (s, _r, _o, i) => {
    const [first, ...rest] = titled(s.name).split(' ');
    const type = titled(s.street_type);
    const address = i % 2 ? `${type}${first ?? ''} ${rest.join(' ')} ${numberOf(s)}` : `${street(s)}${numberOf(s).replace('/', '')}`;
    return { ...base(s), address: address.replace(/\s+/g, ' ') };
  },
  // issue 11: street matching
  two_typos: (s, r) => {
    const words = titled(s.name).split(' ');
    const longest = words[longestAt(words)] ?? '';
    return { ...base(s), address: `${titled(s.street_type)} ${typoInLongest(titled(s.name), r, longest.length >= 8 ? 2 : 1)} ${numberOf(s)}` };
  },
  typo_no_postcode: (s, r) => ({ ...base(s), postcode: '', address: `${titled(s.street_type)} ${typoInLongest(titled(s.name), r)} ${numberOf(s)}` }),
  wrong_type: (s) => ({ ...base(s), address: `${WRONG_TYPE[s.street_type] ?? titled(s.street_type)} ${titled(s.name)} ${numberOf(s)}` }),
  given_name_initial: (s) => {
    const words = s.name.split(' ');
    const at = words.findIndex((w) => GIVEN_NAMES.has(w));
    const written = words.map((w, k) => (k === at && words.length > k + 1 ? `${w[0]}.` : titled(w))).join(' ');
    return { ...base(s), address: `${titled(s.street_type)} ${written} ${numberOf(s)}` };
  },
};

/** The kinds the speed bench mixes into a third of its input. */
export const DIRTY_KINDS = ['city_with_postcode_province', 'city_in_address', 'two_typos', 'first_word_dropped', 'wrong_type', 'number_first', 'glued', 'number_markers', 'typo_no_postcode', 'care_of', 'given_name_initial', 'province_name'];
