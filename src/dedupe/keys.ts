import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the dedupe capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const DEDUPE_KEYS: KeyTable = {
  fields: {
    members: 'membri',
    min_level: 'livello_minimo',
    address_key: 'indirizzo_confronto',
    phones: 'telefoni',
    consolidate: 'consolida',
    processed: 'lavorato',
    processed_at: 'datalav',
    provenance: 'provenienza',
    records: 'anagrafiche',
    reference: 'riferimento',
    reference_id: 'riferimento_id',
    save: 'salva',
    singles: 'singoli',
    explanations: 'spiegazioni',
    generic: 'generica',
    group: 'gruppo',
    groups: 'gruppi',
    type_normalized: 'tipo_norm',
    level: 'livello',
    main_record: 'principale',
  },
  ours: {
    reasons: 'motivi',
    pairs: 'coppie',
    score: 'punteggio',
    added: 'aggiunti',
    removed_groups: 'gruppi_rimossi',
    explanation: 'spiegazione',
  },
  options: {
    min_level: { certo: 'certain', probabile: 'probable', ambiguo: 'ambiguous' },
  },
  values: {
    level: { certain: 'certo', probable: 'probabile', ambiguous: 'ambiguo' },
    min_level: { certain: 'certo', probable: 'probabile', ambiguous: 'ambiguo' },
  },
};
