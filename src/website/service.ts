import { mapConcurrent } from '../email/concurrency.js';
import type { Capability, ItemResult, ProcessContext } from '../http/capability.js';
import { labelOf, outcomeTable, reasonOf } from '../http/outcomes.js';
import type { Language } from '../http/language.js';
import { probeWebsite, type ProbeResult } from './fetch.js';
import { normaliseWebsite, splitWebsites, type WebsiteForm } from './form.js';
import { WEBSITE_OUTCOMES } from './outcomes.js';
import { noteText, PRIVATE_ADDRESS, PRIVATE_NOTE } from './messages.js';
import { websiteItem, websiteResult, type WebsiteItem } from './schema.js';
import { isPrivateAddress } from './ssrf.js';

/**
 * Sites checked at once within one call: a full batch (100 rows × 3) of silent servers then takes about
 * 6 rounds × 10 s (https, then http), rather than minutes.
 */
const CONCURRENCY = 50;

interface Checked {
  written: string;
  form?: WebsiteForm;
  probe?: ProbeResult;
}

const OUTCOMES = outcomeTable(WEBSITE_OUTCOMES);
/** The table with WEBSITE_NOT_RESPONDING's reason for a private address. */
const PRIVATE_OUTCOMES = outcomeTable({ ...WEBSITE_OUTCOMES, WEBSITE_NOT_RESPONDING: { ...WEBSITE_OUTCOMES.WEBSITE_NOT_RESPONDING!, reason: PRIVATE_ADDRESS } });

function conditionsOf(c: Checked): string[] {
  if (!c.form) return ['WEBSITE_INVALID'];
  const out: string[] = [];
  if (c.probe?.outcome) out.push(c.probe.outcome);
  if (c.probe?.certificate_ok === false) out.push('WEBSITE_CERTIFICATE_INVALID');
  return out;
}

function describe(c: Checked, language: Language): Record<string, unknown> {
  const out: Record<string, unknown> = { website: c.form?.url.href ?? c.written };
  if (c.form) out.url_normalized = c.form.url.href;
  if (c.probe) {
    out.final_url = c.probe.final_url ?? null;
    out.redirects = c.probe.redirects;
    out.certificate_ok = c.probe.certificate_ok;
    out.reachable = c.probe.reachable;
    if (c.probe.status !== undefined) out.status = c.probe.status;
    if (c.probe.note) out.note = noteText(c.probe.note, language);
  }
  return out;
}

function rowResult(checked: Checked[], language: Language): ItemResult {
  const conditions: string[] = [];
  for (const c of checked) for (const code of conditionsOf(c)) if (!conditions.includes(code)) conditions.push(code);
  const changed = checked.some((c) => c.form?.changed);
  const outcome = changed ? [...conditions, 'MODIFIED', 'WEBSITE_FORM'] : conditions;
  const first = checked[0]!;
  const firstConditions = conditionsOf(first);
  const result: ItemResult = {
    ok: !firstConditions.some((c) => c === 'WEBSITE_INVALID' || c === 'WEBSITE_DOMAIN_NOT_FOUND' || c === 'WEBSITE_NOT_RESPONDING' || c === 'WEBSITE_PAGE_NOT_FOUND'),
    ...describe(first, language),
    ...(checked[1] ? { website2: checked[1].form?.url.href ?? checked[1].written } : {}),
    ...(checked[2] ? { website3: checked[2].form?.url.href ?? checked[2].written } : {}),
    outcome,
  };
  if (checked.length > 1) result.websites = checked.map((c) => ({ ...describe(c, language), outcome: conditionsOf(c) }));
  const silent = checked.filter((c) => c.probe?.outcome === 'WEBSITE_NOT_RESPONDING');
  if (silent.length && silent.every((c) => c.probe?.note === PRIVATE_NOTE)) {
    // the contract's code stays; its reason says why nothing answered: the address was never asked
    result.outcome_label = labelOf(outcome, OUTCOMES);
    result.reason = reasonOf(outcome, language, PRIVATE_OUTCOMES);
  }
  return result;
}

export async function verifyWebsites(items: WebsiteItem[], ctx: ProcessContext): Promise<ItemResult[]> {
  const rows = items.map((item) => splitWebsites(item.website ?? '').map((written): Checked => {
    const form = normaliseWebsite(written);
    return { written, ...(form ? { form } : {}) };
  }));
  const jobs: { checked: Checked; network: boolean }[] = [];
  rows.forEach((row, i) => {
    for (const checked of row) if (checked.form) jobs.push({ checked, network: items[i]!.network !== false });
  });
  const isBlocked = ctx.allowPrivateNetwork ? () => false : isPrivateAddress;
  await mapConcurrent(jobs, CONCURRENCY, async ({ checked, network }) => {
    if (!network || !checked.form) return;
    checked.probe = await probeWebsite(checked.form.url, {
      ...(ctx.dnsServer ? { dnsServer: ctx.dnsServer } : {}),
      isBlocked,
      httpFallback: checked.form.schemeGuessed,
    });
  });
  return rows.map((row) => (row.length ? rowResult(row, ctx.language) : { ok: false, website: '', outcome: ['WEBSITE_EMPTY'] }));
}


export const capability: Capability<WebsiteItem> = {
  name: 'website',
  paths: ['/api/v1/website', '/api/v1/sito'],
  outcomes: OUTCOMES,
  counter: 'light',
  batchCap: 100,
  asyncAllowed: true,
  item: websiteItem,
  batchOptions: ['network'],
  units: (item) => splitWebsites(item.website ?? '').length,
  async run(items: WebsiteItem[], ctx: ProcessContext): Promise<ItemResult[]> {
    return verifyWebsites(items, ctx);
  },
  result: websiteResult,
  csvColumns: [
    'id', 'website', 'website2', 'website3', 'url_normalized', 'final_url', 'redirects', 'certificate_ok', 'reachable',
    'outcome', 'outcome_label', 'reason',
  ],
};
