import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

import { getRecords } from '../../dedupe/store.js';
import { consoleJobs, markSplit, splitGroups } from '../store.js';
import { duplicatesPage, type GroupView } from '../views.js';
import { dedupeExport } from '../export.js';
import { type ConsoleKit, refusedCall, type SignedIn } from '../kit.js';

/** The duplicates page: a dedupe job's groups, reviewed and split, and their export. */
export const duplicatesPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { state, client, pageContext, sendPage, page, apiLanguage, english, ownedJob } = kit;
  const dedupeJob = async (req: FastifyRequest, user: SignedIn, job: string) => {
    await ownedJob(user, job);
    const res = await client.call(user.account, 'GET', `/api/v1/dedupe?job=${encodeURIComponent(job)}`, apiLanguage(req));
    if (res.status !== 200) throw refusedCall(res, 'dedupe_list_not_found');
    return english(res.body, res.headers) as { state: string; groups?: Omit<GroupView, 'split_at'>[]; singles?: { id: string | number }[] };
  };

  scope.get(
    '/duplicates',
    page(async (req, reply, user) => {
      const ctx = pageContext(req, reply, user);
      const jobs = await consoleJobs(state, user.account, 'dedupe');
      const wanted = String((req.query as Record<string, unknown>).job ?? jobs[0]?.job ?? '');
      let current = null;
      if (wanted) {
        const body = await dedupeJob(req, user, wanted);
        const splits = await splitGroups(state, user.account, wanted);
        const records = new Map((((await getRecords(state, wanted))?.records ?? []) as Record<string, unknown>[]).map((r) => [String(r.id), r]));
        const groups = (body.groups ?? []).map((g) => ({ ...g, split_at: splits[String(g.group)] ?? null }));
        current = { job: wanted, state: body.state, groups, singles: body.singles?.length ?? 0, records };
      }
      return sendPage(reply, duplicatesPage(ctx, jobs, current));
    }),
  );

  scope.post(
    '/duplicates/review',
    page(async (req, reply, user) => {
      const b = (req.body ?? {}) as Record<string, string | undefined>;
      const job = String(b.job ?? '');
      const group = Number(b.group);
      const decision = b.decision === 'split' ? 'split' : 'confirm';
      await ownedJob(user, job);
      // both decisions are the spec's review (the group is processed); a split is also kept here
      const res = await client.call(user.account, 'POST', '/api/v1/dedupe', apiLanguage(req), { job, group, processed: true });
      if (res.status !== 200) throw refusedCall(res, 'review_refused');
      await markSplit(state, user.account, job, group, decision === 'split');
      return reply.redirect(`/console/duplicates?job=${encodeURIComponent(job)}#g-${group}`, 303);
    }),
  );

  scope.get(
    '/duplicates/:file',
    page(async (req, reply, user) => {
      const job = (req.params as { file: string }).file.replace(/\.csv$/, '');
      const body = await dedupeJob(req, user, job);
      const splits = await splitGroups(state, user.account, job);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="duplicates-${job}.csv"`);
      return dedupeExport(((await getRecords(state, job))?.records ?? []) as Record<string, unknown>[], body.groups ?? [], splits);
    }),
  );
};
