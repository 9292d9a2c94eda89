/**
 * Autocomplete for the countries whose national register is in service with streets (LU, CH,
 * DE, DK, NO, SI, ES, NL; MC, LI, AD from OpenStreetMap): the core's `foreignStreets` and
 * `foreignHouseNumbers` doors over the registers held in memory. Street ids are `<country>:<index>`.
 */
import { foreignHouseNumbers as coreHouseNumbers, foreignRegisters, foreignStreets as coreStreets, useForeignRegisters } from '../native.js';
import { boundedMemo } from './memo.js';
import type { Hint } from './schema.js';
import type { OfferedStreet } from './session.js';

let withStreets: Set<string> | undefined;

/** Countries whose register in service lists streets: autocomplete serves them. */
export function foreignSuggestCountries(): Set<string> {
  if (!withStreets) {
    useForeignRegisters();
    withStreets = new Set(foreignRegisters().filter((r) => r.streets > 0).map((r) => r.country));
  }
  return withStreets;
}

/** The attribution of a country's register, shown beside its suggestions. */
export function foreignAttribution(country: string): string | null {
  return foreignRegisters().find((r) => r.country === country)?.attribution ?? null;
}

interface ForeignStreetsPhase {
  hints: Hint[];
  offered: Record<string, OfferedStreet>;
  attribution: string | null;
}

/** Answers kept while the service runs (the registers do not change under it), shared: never edited. */
const streetsMemo = boundedMemo<ForeignStreetsPhase>(5_000);

/** The streets phase: hints, the streets to remember in the session, the register's attribution. */
export function foreignStreets(country: string, query: string, city: string | null, postcode: string | null): Promise<ForeignStreetsPhase> {
  return streetsMemo(JSON.stringify([country, query, city, postcode]), () => computeForeignStreets(country, query, city, postcode));
}

async function computeForeignStreets(country: string, query: string, city: string | null, postcode: string | null): Promise<ForeignStreetsPhase> {
  const a = await coreStreets({ country, query, city: city ?? '', postcode: postcode ?? '', limit: 10 });
  const offered: Record<string, OfferedStreet> = {};
  const hints: Hint[] = a.hints.map((h) => {
    offered[h.id] = { cadastral_code: country, index: Number(h.id.split(':')[1]), street_type: '', name: h.name, municipality: h.municipality, province: h.area ?? '' };
    return { type: 'street', id: h.id, name: h.name, municipality: h.municipality, area: h.area, source: h.source };
  });
  return { hints, offered, attribution: a.attribution };
}

/** The house-number phase of a foreign street: its numbers starting with what was typed. */
export async function foreignHouseNumbers(street: OfferedStreet, streetId: string, typed: string, limit = 10): Promise<{ hints: Hint[]; exists: boolean }> {
  const a = await coreHouseNumbers({ street_id: streetId, typed });
  const source = a.street?.source ?? 'registry';
  const hints = a.numbers.slice(0, limit).map((n) => ({ type: 'house_number' as const, id: `${streetId}:${n}`, name: n, municipality: street.municipality, area: street.province || null, source }));
  return { hints, exists: a.exists };
}
