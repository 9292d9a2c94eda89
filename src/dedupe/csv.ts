import type { FastifyReply, FastifyRequest } from 'fastify';

import { csvStream } from '../http/csv.js';
import { fieldName } from '../http/keys.js';
import { italianCode } from '../http/outcomes.js';
import { isGroups, type CoreResult } from './service.js';
import type { SavedDedupe } from './store.js';

type Row = Record<string, unknown>;

/**
 * One CSV row per record compared, in the order a spreadsheet user reviews them: one-list jobs group by
 * group (the main record first) then the singles; two-list jobs give each record its best reference match.
 */
function rows(result: CoreResult, processed: Record<string, string>): { columns: string[]; rows: Row[] } {
  if (isGroups(result)) {
    const out: Row[] = [];
    for (const g of result.groups) {
      const members = [g.main_record.id, ...g.members.filter((m) => m !== g.main_record.id)];
      for (const id of members) {
        out.push({ id, group: g.group, level: g.level, main_record: id === g.main_record.id ? 'yes' : '', reasons: g.reasons.join(' '), processed: processed[String(g.group)] ?? '', outcome: '' });
      }
    }
    for (const s of result.singles) out.push({ id: s.id, group: '', level: '', main_record: '', reasons: '', processed: '', outcome: s.outcome.join(' ') });
    return { columns: ['id', 'group', 'level', 'main_record', 'reasons', 'processed', 'outcome'], rows: out };
  }
  const out: Row[] = result.matches.map((m) => ({ id: m.id, reference_id: m.reference_id, level: m.level, score: m.score, reasons: m.reasons.join(' ') }));
  for (const n of result.not_found) out.push({ id: n.id, reference_id: '', level: '', score: '', reasons: '' });
  return { columns: ['id', 'reference_id', 'level', 'score', 'reasons'], rows: out };
}

/** GET /api/v1/dedupe?job=CODE&format=csv: the saved result as CSV (a header only while the job runs). */
export function dedupeCsv(saved: SavedDedupe, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const italian = req.ctx.italian;
  const table = saved.result ? rows(saved.result, saved.processed) : { columns: ['id', 'group', 'level', 'main_record', 'reasons', 'processed', 'outcome'], rows: [] };
  const stream = csvStream(table.columns.map((c) => fieldName(c, italian)));
  for (const row of table.rows) {
    stream.write(table.columns.map((c) => (c === 'outcome' && italian ? String(row[c] ?? '').split(' ').filter(Boolean).map(italianCode).join(' ') : String(row[c] ?? ''))));
  }
  stream.end();
  reply.header('Content-Language', req.ctx.language);
  reply.header('Content-Disposition', `attachment; filename="dedupe-${saved.job}.csv"`);
  return reply.type('text/csv; charset=utf-8').send(stream);
}
