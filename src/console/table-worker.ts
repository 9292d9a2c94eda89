import { parentPort, workerData } from 'node:worker_threads';

import { parseTable, readTableOf, TableError } from './tables.js';

/** One uploaded file read off the event loop (tables.ts, tableReaders): the table, or why it was refused. */
const { name, data } = workerData as { name: string; data: Uint8Array };
parseTable(name, Buffer.from(data.buffer, data.byteOffset, data.byteLength)).then(
  (table) => parentPort?.postMessage({ table: readTableOf(table) }),
  (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error), tableError: error instanceof TableError ? { key: error.key, values: error.values } : undefined }),
);
