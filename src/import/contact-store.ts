import { contactDictionariesSync, type ContactDictionaries } from '../native.js';

export type { LegalFormRow, NameGender, ProfessionRow, SpecialNumberRow, TitleRow } from '../native.js';

/**
 * The contact dictionaries of a data dir as the light capabilities read them (enrichment, email,
 * phone). The core imports and owns them (`crates/core/src/register/import/names.rs`); this only
 * loads them through the `contactDictionaries` door, once per process and data dir.
 */
export interface ContactData extends ContactDictionaries {
  /** Where they were read from: the role-mailbox door answers for this data dir's list. */
  dataDir: string;
  /** False when the data dir has no imported contact data: the services then work without dictionaries. */
  imported: boolean;
}

const EMPTY: ContactDictionaries = {
  names: {},
  hypocoristics: {},
  titles: [],
  professions: [],
  legalForms: [],
  roleLocalParts: [],
  freemailDomains: [],
  districts: {},
  mobileOperators: {},
  specialNumbers: [],
};

const cache = new Map<string, ContactData>();

/** Loaded once per process (and per worker thread) for each data dir. */
export function contactData(dataDir: string): ContactData {
  const known = cache.get(dataDir);
  if (known) return known;
  const dictionaries = contactDictionariesSync(dataDir);
  const data: ContactData = { ...(dictionaries ?? EMPTY), dataDir, imported: dictionaries !== null };
  cache.set(dataDir, data);
  return data;
}
