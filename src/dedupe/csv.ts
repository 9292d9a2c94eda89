import type { FastifyReply, FastifyRequest } from 'fastify';

import { csvStream } from '../http/csv.js';
import { fieldName, italianValue } from '../http/keys.js';
import { italianCode } from '../http/outcomes.js';
import { REASON_TEXTS } from './outcomes.js';
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

/**
 * A cell under Italian headers in Italian (issue 34): outcome codes in their Italian form, the level's value
 * (`certo`), the main record's mark (`sì`), the reasons as their Italian texts.
 */
function italianCell(column: string, value: unknown): string {
  const text = String(value ?? '');
  const words = () => text.split(' ').filter(Boolean);
  if (column === 'outcome') return words().map(italianCode).join(' ');
  if (column === 'main_record') return text === 'yes' ? 'sì' : text;
  if (column === 'reasons') return words().map((code) => REASON_TEXTS[code]?.it ?? code).join('; ');
  return italianValue(column, text);
}

/** GET /api/v1/dedupe?job=CODE&format=csv: the saved result as CSV (a header only while the job runs). */
export function dedupeCsv(saved: SavedDedupe, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const italian = req.ctx.italian;
  const table = saved.result ? rows(saved.result, saved.processed) : { columns: ['id', 'group', 'level', 'main_record', 'reasons', 'processed', 'outcome'], rows: [] };
  const stream = csvStream(table.columns.map((c) => fieldName(c, italian)));
  for (const row of table.rows) {
    stream.write(table.columns.map((c) => (italian ? italianCell(c, row[c]) : String(row[c] ?? ''))));
  }
  stream.end();
  reply.header('Content-Language', req.ctx.language);
  reply.header('Content-Disposition', `attachment; filename="dedupe-${saved.job}.csv"`);
  return reply.type('text/csv; charset=utf-8').send(stream);
}
