import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/** Gender evidence for one folded first name: share of male bearers (0..1) and how many records back it. */
export interface NameGender {
  male: number;
  weight: number;
}

export interface TitleRow {
  id: string;
  category: string;
  abbrM: string;
  abbrF: string;
  nameM: string;
  nameF: string;
  salutationM: string;
  salutationF: string;
  /** Folded written forms (abbreviations and full words) that name this title. */
  forms: string[];
}

export interface ProfessionRow {
  /** Folded masculine and feminine profession names. */
  forms: string[];
  titleId: string;
  abbrM: string;
  abbrF: string;
}

export interface LegalFormRow {
  form: string;
  description: string;
  category: string;
  /** giuridica, giuridica_probabile, fisica_imprenditore, ente_di_gestione, ambiguo */
  subject: string;
  /** Where the marker usually sits: prefisso, suffisso, prefisso/suffisso. */
  position: string;
  /** Folded variants, longest first. */
  variants: string[];
}

export interface SpecialNumberRow {
  prefix: string;
  /** Allowed digit counts. */
  lengths: number[];
  category: string;
  description: string;
}

/** Everything the light capabilities read from ../shared/data/contact, as written by `importContactData`. */
export interface ContactData {
  names: Record<string, NameGender>;
  /** Short form (folded) → gender M/F from the curated hypocoristics. */
  hypocoristics: Record<string, 'M' | 'F'>;
  titles: TitleRow[];
  professions: ProfessionRow[];
  legalForms: LegalFormRow[];
  /** Italian role local parts (lower case). */
  roleLocalParts: string[];
  /** Italian free-mail and ISP mail domains. */
  freemailDomains: string[];
  /** District prefix (with the 0) → district name. */
  districts: Record<string, string>;
  /** National mobile prefix → original block assignee. */
  mobileOperators: Record<string, string>;
  specialNumbers: SpecialNumberRow[];
  /** False when the data dir has no imported contact data: the services then work without dictionaries. */
  imported: boolean;
}

export const CONTACT_FILES = {
  names: 'names.json',
  hypocoristics: 'hypocoristics.json',
  titles: 'titles.json',
  professions: 'professions.json',
  legalForms: 'legal_forms.json',
  roleLocalParts: 'email_role_localparts.json',
  freemailDomains: 'email_freemail_domains.json',
  districts: 'phone_districts.json',
  mobileOperators: 'phone_mobile_operators.json',
  specialNumbers: 'phone_special_numbers.json',
} as const satisfies Record<Exclude<keyof ContactData, 'imported'>, string>;

const cache = new Map<string, ContactData>();

/** Loaded once per process (and per worker thread) for each data dir. */
export function contactData(dataDir: string): ContactData {
  const dir = path.join(dataDir, 'contact');
  const known = cache.get(dir);
  if (known) return known;
  const imported = existsSync(path.join(dir, CONTACT_FILES.names));
  const read = <T>(file: string, empty: T): T =>
    imported ? (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T) : empty;
  const data: ContactData = {
    names: read(CONTACT_FILES.names, {}),
    hypocoristics: read(CONTACT_FILES.hypocoristics, {}),
    titles: read(CONTACT_FILES.titles, []),
    professions: read(CONTACT_FILES.professions, []),
    legalForms: read(CONTACT_FILES.legalForms, []),
    roleLocalParts: read(CONTACT_FILES.roleLocalParts, []),
    freemailDomains: read(CONTACT_FILES.freemailDomains, []),
    districts: read(CONTACT_FILES.districts, {}),
    mobileOperators: read(CONTACT_FILES.mobileOperators, {}),
    specialNumbers: read(CONTACT_FILES.specialNumbers, []),
    imported,
  };
  cache.set(dir, data);
  return data;
}
