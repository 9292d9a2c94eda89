import { csvText } from '../http/csv.js';
import type { GroupView } from './views.js';

const EXPORT_FIELDS = ['last_name', 'first_name', 'address', 'postcode', 'city', 'province', 'country', 'email', 'phone', 'tax_code'];

function flat(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(flat).filter(Boolean).join(' | ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.value !== undefined) return String(o.value);
    return [o.address, o.postcode, o.city, o.province].filter(Boolean).join(', ');
  }
  return String(v);
}

/**
 * The deduplicated list: one row per group kept as one (its merged record, under the main record's id)
 * and the original rows of split groups and of records without duplicates.
 */
export function dedupeExport(records: Record<string, unknown>[], groups: Omit<GroupView, 'split_at'>[], splits: Record<string, string>): string {
  const rows: string[][] = [['id', 'group', 'level', 'review', 'members', ...EXPORT_FIELDS]];
  const grouped = new Set<string>();
  const byId = new Map(records.map((r) => [String(r.id), r]));
  for (const g of groups) {
    const split = splits[String(g.group)] !== undefined;
    const review = split ? 'split' : g.processed ? 'confirmed' : 'unreviewed';
    if (split) continue;
    g.members.forEach((m) => grouped.add(String(m)));
    const merged = g.record;
    const first = (k: string) => flat(merged[k] ?? merged[`${k}s`]);
    rows.push([String(g.main_record.id), String(g.group), g.level, review, g.members.join(' '), ...EXPORT_FIELDS.map(first)]);
  }
  for (const [id, r] of byId) {
    if (grouped.has(id)) continue;
    const group = groups.find((g) => g.members.map(String).includes(id));
    rows.push([id, group ? String(group.group) : '', group?.level ?? '', group ? 'split' : '', '', ...EXPORT_FIELDS.map((k) => flat(r[k]))]);
  }
  return csvText(rows);
}
