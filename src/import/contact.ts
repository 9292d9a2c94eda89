import { importContactDictionaries, type DatasetSummary } from '../native.js';

/**
 * The contact dictionaries of `sourceDir` (../shared/data) into `dataDir` alone, without the street
 * register: the core reads the CSVs in their published formats (`register/import/names.rs`), as
 * `recapito import` does along with the register. For data dirs that serve only the light capabilities.
 */
export async function importContactData(sourceDir: string, dataDir: string): Promise<{ datasets: DatasetSummary[] }> {
  return { datasets: await importContactDictionaries(sourceDir, dataDir) };
}
