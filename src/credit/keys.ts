import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the credit capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const CREDIT_KEYS: KeyTable = {
  fields: {
    activated_on: 'attivato_il',
    active_packs: 'attivi',
    monthly_cap_eur: 'tetto_mese_eur',
    auto_topup: 'auto_ricarica',
    available: 'disponibile',
    needs_topup: 'da_ricaricare',
    bought: 'comprati',
    origin: 'origine',
    overall_cap_eur: 'tetto_globale_eur',
    packs: 'pacchetti',
    renews_on: 'si_rinnova_il',
    reset_on: 'si_azzerano_il',
    spent_month_eur: 'speso_mese_eur',
    spent_overall_month_eur: 'speso_globale_mese_eur',
    states: 'stati',
    free_forever: 'gratis_per_sempre',
    subscription: 'abbonamento',
    last_used: 'ultimo_uso',
  },
};
