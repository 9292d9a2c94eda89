import type { FastifyPluginAsync } from 'fastify';

import { getSaved } from '../../dedupe/store.js';
import { addConsoleJob, addUsage, consoleJobs, getUpload, putUpload, usageKey, type ConsoleJob } from '../store.js';
import { BATCH_FIELDS, CAPABILITY_PATHS, MAX_UPLOAD_BYTES, isBatchCapability, itemsOf, suggestCapability, suggestMapping } from '../tables.js';
import { listsPage, type JobView } from '../views.js';
import { ConsoleError, type ConsoleKit, refusedCall } from '../kit.js';

/** The lists page: a table uploaded, mapped to a capability and queued as a job; its progress, results and download. */
export const listsPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { state, client, usage, readers, jobStore, counters, pageContext, sendPage, page, apiLanguage, english, ownedJob } = kit;
  // a list's job is read where the jobs live (LMDB, or PostgreSQL shared by every node); a dedupe list
  // is a job too (one unit, its outcomes are groups: the duplicates page), or, saved by a process older
  // than the job system, only its saved dedupe
  const jobView = async (j: ConsoleJob): Promise<JobView> => {
    const record = await jobStore.get(j.job);
    const older = !record && j.capability === 'dedupe' ? await getSaved(state, jobStore, j.job, j.account) : undefined;
    const now = record?.state ?? older?.state ?? 'failed';
    const outcomes = record && now === 'completed' && j.capability !== 'dedupe' ? { ...record.outcomes } : null;
    return { ...j, state: now, done: record?.done ?? (now === 'completed' ? j.rows : 0), refunded: record?.refunded ?? 0, outcomes };
  };

  scope.get(
    '/lists',
    page(async (req, reply, user) => {
      const ctx = pageContext(req, reply, user);
      return sendPage(reply, listsPage(ctx, await Promise.all((await consoleJobs(state, user.account)).map(jobView))));
    }),
  );

  scope.post(
    '/api/upload',
    { bodyLimit: MAX_UPLOAD_BYTES },
    page(async (req, _reply, user) => {
      const data = req.body;
      if (!Buffer.isBuffer(data)) throw new ConsoleError(400, 'upload_octet_stream');
      const name = String((req.query as Record<string, unknown>).name ?? 'list.csv').slice(0, 200);
      const table = await readers.read(name, data);
      const upload = await putUpload(state, { account: user.account, name, headers: table.headers, rowsJson: table.rowsJson });
      const mappings = Object.fromEntries(Object.keys(BATCH_FIELDS).map((cap) => [cap, suggestMapping(cap, table.headers)]));
      return { ok: true, upload, file: name, rows: table.rowCount, headers: table.headers, preview: table.preview, capability: suggestCapability(table.headers), mappings };
    }),
  );

  scope.post(
    '/api/jobs',
    page(async (req, reply, user) => {
      const b = (req.body ?? {}) as { upload?: unknown; capability?: unknown; mapping?: unknown; action?: unknown };
      const capability = String(b.capability ?? '');
      if (!isBatchCapability(capability)) throw new ConsoleError(400, 'unknown_capability', { capability: String(capability) });
      const upload = await getUpload(state, String(b.upload ?? ''), user.account);
      if (!upload) throw new ConsoleError(404, 'upload_gone');
      const allowed = new Set(BATCH_FIELDS[capability]);
      const mapping: Record<number, string> = {};
      for (const [col, field] of Object.entries((b.mapping ?? {}) as Record<string, unknown>)) {
        if (typeof field === 'string' && allowed.has(field) && Number(col) >= 0 && Number(col) < upload.headers.length) mapping[Number(col)] = field;
      }
      if (Object.values(mapping).filter((f) => f !== 'id').length === 0) throw new ConsoleError(400, 'map_one_column');
      const items = itemsOf(upload, mapping);
      const language = apiLanguage(req);
      const payload: Record<string, unknown> =
        capability === 'dedupe' ? { records: items, async: true } : { items, async: true, ...(capability === 'tax-code' ? { action: String(b.action ?? 'validate') } : {}) };
      const res = await client.call<{ job?: string; lavoro?: string; rows?: number; message?: string; code?: string }>(user.account, 'POST', CAPABILITY_PATHS[capability] ?? '', language, payload);
      if (res.status !== 200) return reply.code(res.status).send(english(res.body, res.headers));
      const job = String(res.body.job ?? res.body.lavoro);
      const named = Object.fromEntries(Object.entries(mapping).map(([col, field]) => [upload.headers[Number(col)] ?? col, field]));
      await addConsoleJob(state, { job, capability, account: user.account, file: upload.name, rows: items.length, created: new Date().toISOString(), mapping: named });
      return { ok: true, job, rows: items.length, credit: (english(res.body, res.headers) as Record<string, unknown>).credit };
    }),
  );

  scope.get(
    '/api/jobs/:job',
    page(async (req, _reply, user) => {
      const view = await jobView(await ownedJob(user, (req.params as { job: string }).job));
      return { ok: true, job: view.job, capability: view.capability, state: view.state, rows: view.rows, done: view.done, refunded: view.refunded, outcomes: view.outcomes };
    }),
  );

  scope.post(
    '/api/jobs/:job/cancel',
    page(async (req, reply, user) => {
      const j = await ownedJob(user, (req.params as { job: string }).job);
      if (j.capability === 'dedupe') throw new ConsoleError(400, 'dedupe_not_cancellable');
      const res = await client.call<{ refunded?: number; rimborsate?: number }>(user.account, 'DELETE', `${CAPABILITY_PATHS[j.capability]}?job=${encodeURIComponent(j.job)}`, apiLanguage(req));
      const refunded = Number(res.body.refunded ?? res.body.rimborsate ?? 0);
      const counter = counters[j.capability];
      // the usage chart shows what was charged on the day the list was started, less what came back
      if (res.status === 200 && refunded > 0 && counter) await addUsage(state, new Map([[usageKey(user.account, j.created.slice(0, 10), counter), -refunded]]));
      return reply.code(res.status).send(english(res.body, res.headers));
    }),
  );

  scope.get(
    '/lists/:capability/:file',
    page(async (req, reply, user) => {
      const { file } = req.params as { capability: string; file: string };
      const j = await ownedJob(user, file.replace(/\.csv$/, ''));
      const res = await client.call(user.account, 'GET', `${CAPABILITY_PATHS[j.capability]}?job=${encodeURIComponent(j.job)}&format=csv`, apiLanguage(req));
      if (res.status !== 200) throw refusedCall(res, 'result_not_ready');
      const base = j.file.replace(/\.(csv|xlsx|txt)$/i, '').replace(/[^\w.-]+/g, '_');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${base}-${j.capability}-${j.job}.csv"`)
        .send(res.raw);
    }),
  );
};
