import { computeJson } from '../native.js';

/** A country whose national register is in service (Rust `postal::registers::InService`). */
export interface InService {
  country: string;
  verification: 'house_number' | 'street' | 'postcode';
  register: string;
  date: string;
}

/** The postal format known for a country (Rust `postal::FormatSummary`). */
export interface FormatSummary {
  country: string;
  postcode_pattern: boolean;
  postcode_example: string | null;
  subdivisions: number;
}

export interface Coverage {
  in_service: InService[];
  formats: FormatSummary[];
}

/** What each country gets, as the imported register says: read on every call (an import may change it). */
export async function coverage(): Promise<Map<string, { verification: string; register: { name: string; date: string } | null; postal: FormatSummary | null }>> {
  // without a register (never imported) nothing is in service and no format is known
  const c = await computeJson<Coverage>('postal.coverage', {}).catch((): Coverage => ({ in_service: [], formats: [] }));
  const formats = new Map(c.formats.map((f) => [f.country, f]));
  const out = new Map<string, { verification: string; register: { name: string; date: string } | null; postal: FormatSummary | null }>();
  for (const f of c.formats) out.set(f.country, { verification: 'postal_form', register: null, postal: f });
  for (const r of c.in_service) {
    out.set(r.country, { verification: r.verification, register: { name: r.register, date: r.date }, postal: formats.get(r.country) ?? null });
  }
  return out;
}
