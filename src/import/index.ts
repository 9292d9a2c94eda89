/**
 * Importers written in TypeScript that run after the native register import (contact dictionaries...).
 * Each reads open data in its published format from `source` and writes under `dataDir`.
 */
import type { DatasetSummary } from '../native.js';

/** What an importer reports per dataset: the core's `DatasetSummary` without the attribution. */
export type DatasetReport = Pick<DatasetSummary, 'name' | 'file' | 'rows'>;

export type Importer = (source: string, dataDir: string) => Promise<{ datasets: DatasetReport[] }>;

export const TS_IMPORTERS: { name: string; load: () => Promise<Importer> }[] = [
  { name: 'contact', load: async () => (await import('./contact.js')).importContactData },
];
