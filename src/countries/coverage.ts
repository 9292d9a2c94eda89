import { coreErrorCode, postalCoverage, type Coverage, type FormatSummary } from '../native.js';

/** What each country gets, as the imported register says: read on every call (an import may change it). */
export async function coverage(): Promise<Map<string, { verification: string; register: { name: string; date: string } | null; postal: FormatSummary | null }>> {
  // without a register (never imported) nothing is in service and no format is known
  const c = await postalCoverage().catch((e: unknown): Coverage => {
    if (coreErrorCode(e) === 'data_missing') return { in_service: [], formats: [] };
    throw e;
  });
  const formats = new Map(c.formats.map((f) => [f.country, f]));
  const out = new Map<string, { verification: string; register: { name: string; date: string } | null; postal: FormatSummary | null }>();
  for (const f of c.formats) out.set(f.country, { verification: 'postal_form', register: null, postal: f });
  for (const r of c.in_service) {
    out.set(r.country, { verification: r.verification, register: { name: r.register, date: r.date }, postal: formats.get(r.country) ?? null });
  }
  return out;
}
