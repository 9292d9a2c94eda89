import { specFieldName } from '../http/keys.js';
import type { TokenRecord } from '../state/db.js';
import { html, jsonBlock, type Html } from './html.js';
import type { ConsoleJob } from './store.js';
import { BATCH_FIELDS } from './tables.js';
import { CONSOLE_LANGUAGES, type ConsoleLanguage, type TextKey, type Translate } from './texts.js';

export interface PageContext {
  t: Translate;
  language: ConsoleLanguage;
  csrf: string;
  /** Path of the page, for the language switch and the current tab. */
  path: string;
  user?: { email: string; account: string };
}

const TABS: [string, TextKey][] = [
  ['/console/verify', 'nav_verify'],
  ['/console/lists', 'nav_lists'],
  ['/console/duplicates', 'nav_duplicates'],
  ['/console/credit', 'nav_credit'],
  ['/console/tokens', 'nav_tokens'],
];

const LANGUAGE_NAMES: Record<ConsoleLanguage, string> = { en: 'English', it: 'Italiano' };

/** A page script: its path, and data-* attributes it reads from its own element. */
export type Script = string | { src: string; data: Record<string, string> };

function scriptTag(s: Script): Html {
  if (typeof s === 'string') return html`<script src="${s}" defer></script>`;
  return html`<script src="${s.src}"${Object.entries(s.data).map(([k, v]) => html` data-${k}="${v}"`)} defer></script>`;
}

export function layout(ctx: PageContext, title: string, body: Html, scripts: Script[] = [], notice?: { kind: 'error' | 'info'; text: string }): Html {
  const { t } = ctx;
  return html`<!doctype html>
<html lang="${ctx.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${ctx.csrf}">
<title>${title} · ${t('title')}</title>
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip" href="#main">${t('skip')}</a>
<header class="top">
  <span class="brand">recapito</span>
  ${ctx.user
    ? html`<nav aria-label="console"><ul>${TABS.map(([href, key]) => html`<li><a href="${href}"${ctx.path.startsWith(href) ? html` aria-current="page"` : ''}>${t(key)}</a></li>`)}</ul></nav>`
    : ''}
  <div class="who">
    <nav aria-label="${t('language')}" class="langs">${CONSOLE_LANGUAGES.map((l) =>
      l === ctx.language ? html`<span aria-current="true" lang="${l}">${LANGUAGE_NAMES[l]}</span>` : html`<a href="${ctx.path}?lang=${l}" lang="${l}" hreflang="${l}">${LANGUAGE_NAMES[l]}</a>`,
    )}</nav>
    ${ctx.user
      ? html`<span class="user">${t('signed_in_as', { email: ctx.user.email, account: ctx.user.account })}</span>
    <form method="post" action="/console/logout" class="inline"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button type="submit" class="link">${t('sign_out')}</button></form>`
      : ''}
  </div>
</header>
<main id="main" tabindex="-1">
${notice ? html`<p class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${notice.text}</p>` : ''}
${body}
</main>
${scripts.map(scriptTag)}
</body>
</html>`;
}

/** `2026-11-23T14:32:05Z` → `2026-11-23 14:32`. */
const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** A table with one header row, or the sentence that says there is nothing yet. */
function tableOrEmpty(t: Translate, id: string, columns: TextKey[], rows: Html[], empty: TextKey): Html {
  if (rows.length === 0) return html`<p>${t(empty)}</p>`;
  return html`<div class="scroll"><table id="${id}">
<thead><tr>${columns.map((c) => html`<th scope="col">${t(c)}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export function loginPage(ctx: PageContext, email: string, notice?: { kind: 'error' | 'info'; text: string }, action = '/console/login'): Html {
  const { t } = ctx;
  return layout(
    ctx,
    t('login_title'),
    html`<section class="card narrow">
<h1>${t('login_title')}</h1>
<p>${t('login_intro')}</p>
<form method="post" action="${action}">
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <label for="email">${t('email')}</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${email}">
  <label for="password">${t('password')}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">${t('sign_in')}</button>
</form>
</section>`,
    [],
    notice,
  );
}

export function verifyPage(ctx: PageContext): Html {
  const { t } = ctx;
  const field = (name: string, key: TextKey, attrs: Html | string = '') =>
    html`<div class="field f-${name}"><label for="v-${name}">${t(key)}</label><input id="v-${name}" name="${name}" data-recapito="${name}" ${attrs}></div>`;
  return layout(
    ctx,
    t('verify_title'),
    html`<h1>${t('verify_title')}</h1>
<p class="intro">${t('verify_intro')}</p>
<form id="verify-form" class="card address" data-recapito-form novalidate>
  ${field('city', 'city', html`autocomplete="address-level2"`)}
  ${field('province', 'province', html`size="3" autocomplete="off"`)}
  ${field('postcode', 'postcode', html`inputmode="numeric" size="6" autocomplete="postal-code"`)}
  ${field('street', 'street')}
  ${field('house_number', 'house_number', html`inputmode="text" size="6"`)}
  <div class="buttons"><button type="submit">${t('verify_button')}</button></div>
</form>
<section id="verify-result" class="card" aria-live="polite" aria-labelledby="result-title">
  <h2 id="result-title">${t('verified_record')}</h2>
  <p class="empty">${t('no_result')}</p>
</section>
${jsonBlock('console-texts', textsFor(ctx))}`,
    // the console uses the customers' widget, pointed at its own proxy, which wants the CSRF header
    [{ src: '/widget/v1/autocomplete.js', data: { endpoint: '/console/api/suggest', 'header-name': 'x-csrf-token', 'header-value': ctx.csrf } }, '/console/assets/console.js'],
  );
}

function textsFor(ctx: PageContext): Record<string, string> {
  const keys: TextKey[] = [
    'verified_record', 'outcome', 'reason', 'codes', 'code_meaning', 'normalized', 'postcode_check', 'confirmed', 'not_confirmed', 'coordinates', 'precision', 'territory', 'charged', 'map_link', 'street_already_charged',
    'mapping', 'column', 'field', 'ignore', 'preview', 'start', 'rows_read', 'refunded', 'download', 'cancel', 'error', 'tax_action', 'state', 'outcomes', 'open_groups', 'job_queued', 'job_running', 'job_completed', 'job_failed', 'job_cancelled',
  ];
  return Object.fromEntries(keys.map((k) => [k, ctx.t(k)]));
}

function stateCell(ctx: PageContext, job: JobView): Html {
  return html`<span class="state s-${job.state}">${ctx.t(`job_${job.state}` as TextKey)}</span>`;
}

export interface JobView extends ConsoleJob {
  state: string;
  done: number;
  refunded: number;
  outcomes: Record<string, number> | null;
}

function progress(job: JobView): Html {
  const pct = job.rows ? Math.floor((100 * job.done) / job.rows) : 0;
  return html`<progress max="${job.rows}" value="${job.done}" aria-label="${job.file}: ${pct}%">${pct}%</progress> <span class="pct">${pct}%</span>`;
}

export function listsPage(ctx: PageContext, jobs: JobView[]): Html {
  const { t } = ctx;
  const caps = Object.keys(BATCH_FIELDS);
  return layout(
    ctx,
    t('lists_title'),
    html`<h1>${t('lists_title')}</h1>
<p class="intro">${t('lists_intro')}</p>
<form id="upload-form" class="card" enctype="multipart/form-data">
  <div class="row">
    <div class="field"><label for="upload-file">${t('file')}</label><input id="upload-file" name="file" type="file" accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required></div>
    <div class="buttons"><button type="submit">${t('upload')}</button></div>
  </div>
</form>
<form id="mapping-form" class="card" hidden>
  <p id="upload-summary" role="status"></p>
  <div class="row">
    <div class="field"><label for="capability">${t('capability')}</label>
      <select id="capability" name="capability">${caps.map((c) => html`<option value="${c}">${t(`cap_${c}` as TextKey)}</option>`)}</select></div>
    <div class="field" id="tax-action-field" hidden><label for="tax-action">${t('tax_action')}</label>
      <select id="tax-action" name="action"><option value="validate">validate</option><option value="extract">extract</option><option value="generate">generate</option><option value="compare">compare</option></select></div>
  </div>
  <h2>${t('mapping')}</h2>
  <div class="scroll"><table id="mapping-table"><thead><tr><th scope="col">${t('column')}</th><th scope="col">${t('field')}</th><th scope="col">${t('preview')}</th></tr></thead><tbody></tbody></table></div>
  <h2>${t('preview')}</h2>
  <div class="scroll"><table id="preview-table"></table></div>
  <div class="buttons"><button type="submit" id="start-job">${t('start')}</button></div>
</form>
<section class="card" aria-labelledby="jobs-title">
<h2 id="jobs-title">${t('jobs')}</h2>
${tableOrEmpty(t, 'jobs-table', ['job', 'capability', 'rows', 'state', 'progress', 'outcomes', 'actions'], jobs.map(
      (j) => html`<tr data-job="${j.job}" data-capability="${j.capability}" data-state="${j.state}">
<td><span class="file">${j.file}</span><br><code>${j.job}</code><br><small>${minute(j.created)}</small></td>
<td>${t(`cap_${j.capability}` as TextKey)}</td><td>${j.rows}</td>
<td class="state-cell">${stateCell(ctx, j)}</td>
<td class="progress-cell">${progress(j)}</td>
<td class="outcomes-cell">${j.outcomes ? Object.entries(j.outcomes).map(([k, v]) => html`<span class="tag">${k} ${v}</span> `) : ''}</td>
<td class="actions-cell">
  ${j.capability === 'dedupe'
    ? html`<a class="button" href="/console/duplicates?job=${j.job}" data-when="completed"${j.state === 'completed' ? '' : html` hidden`}>${t('open_groups')}</a>`
    : html`<a class="button" href="/console/lists/${j.capability}/${j.job}.csv" download data-when="completed"${j.state === 'completed' ? '' : html` hidden`}>${t('download')}</a>`}
  <button type="button" class="cancel" data-when="active"${j.state === 'queued' || j.state === 'running' ? '' : html` hidden`}>${t('cancel')}</button>
  <span class="refund" role="status">${j.refunded ? t('refunded', { n: j.refunded }) : ''}</span>
</td></tr>`,
    ), 'no_jobs')}
</section>
${jsonBlock('console-texts', textsFor(ctx))}
${jsonBlock('console-fields', BATCH_FIELDS)}
${jsonBlock('console-field-labels', Object.fromEntries([...new Set(Object.values(BATCH_FIELDS).flat())].map((f) => [f, fieldLabel(f, ctx.language)])))}`,
    ['/console/assets/console.js'],
  );
}

export interface GroupView {
  group: number;
  members: (string | number)[];
  level: string;
  reasons: string[];
  explanations: string[];
  processed: boolean;
  processed_at: string | null;
  split_at: string | null;
  main_record: { id: string | number; explanation?: string };
  record: Record<string, unknown>;
}

/** A field's name for people: the API's own Italian name in Italian (`cognome`), else `last name`. */
export function fieldLabel(key: string, language: ConsoleLanguage): string {
  return (language === 'it' ? (specFieldName(key) ?? key) : key).replace(/_/g, ' ');
}

function recordTable(record: Record<string, unknown>, language: ConsoleLanguage): Html {
  const rows = Object.entries(record).filter(([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
  return html`<dl class="record">${rows.map(([k, v]) => html`<dt>${fieldLabel(k, language)}</dt><dd>${formatValue(v)}</dd>`)}</dl>`;
}

function formatValue(v: unknown): string {
  if (Array.isArray(v)) return v.map(formatValue).join('; ');
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const label = o.type && o.type !== 'other' ? ` (${String(o.type)})` : '';
    if (o.value !== undefined) return `${String(o.value)}${label}`;
    if (typeof o.address === 'string') {
      const place = [o.postcode, o.city, o.province ? `(${String(o.province)})` : null].filter(Boolean).join(' ');
      return `${o.address}${place ? `, ${place}` : ''}${label}`;
    }
    return Object.entries(o)
      .filter(([k, x]) => x !== null && x !== '' && k !== 'provenance' && typeof x !== 'object')
      .map(([, x]) => String(x))
      .join(', ');
  }
  return String(v);
}

export function duplicatesPage(
  ctx: PageContext,
  jobs: ConsoleJob[],
  current: { job: string; groups: GroupView[]; singles: number; state: string; records: Map<string, Record<string, unknown>> } | null,
): Html {
  const { t } = ctx;
  const body = html`<h1>${t('dup_title')}</h1>
<p class="intro">${t('dup_intro')}</p>
${jobs.length === 0
  ? html`<p class="card">${t('no_dedupe_jobs')}</p>`
  : html`<form method="get" action="/console/duplicates" class="card row">
  <div class="field"><label for="dup-job">${t('dup_pick')}</label>
  <select id="dup-job" name="job">${jobs.map((j) => html`<option value="${j.job}"${current?.job === j.job ? ' selected' : ''}>${j.file} · ${minute(j.created)} · ${j.rows}</option>`)}</select></div>
  <div class="buttons"><button type="submit">${t('open_groups')}</button></div>
</form>`}
${current
  ? html`<p>${t('singles', { n: current.singles })} <a class="button" href="/console/duplicates/${current.job}.csv" download>${t('export')}</a></p>
${current.groups.length === 0 ? html`<p>${t('no_groups')}</p>` : ''}
${current.groups.map((g) => {
    const main = current.records.get(String(g.main_record.id)) ?? {};
    return html`<article class="card group${g.split_at ? ' is-split' : g.processed ? ' is-done' : ''}" aria-labelledby="g-${g.group}">
<h2 id="g-${g.group}">${t('group')} ${g.group} · <span class="level l-${g.level}">${g.level}</span> · ${g.members.length} ${t('members').toLowerCase()}</h2>
<p><strong>${t('reasons')}:</strong> ${g.explanations.join('; ')} <small>(${g.reasons.join(', ')})</small></p>
<p><strong>${t('members')}:</strong> ${g.members.map((m) => html`<code>${m}</code> `)}</p>
<div class="side">
  <section><h3>${t('main_record')} <code>${g.main_record.id}</code></h3>${g.main_record.explanation ? html`<p><small>${g.main_record.explanation}</small></p>` : ''}${recordTable(main, ctx.language)}</section>
  <section><h3>${t('merged_record')}</h3>${recordTable(g.record, ctx.language)}</section>
</div>
${g.members.length > 1
  ? html`<details class="members-more"><summary>${t('other_records')}</summary><div class="side">${g.members
      .filter((m) => String(m) !== String(g.main_record.id))
      .map((m) => html`<section><h3><code>${m}</code></h3>${recordTable(current.records.get(String(m)) ?? {}, ctx.language)}</section>`)}</div></details>`
  : ''}
<form method="post" action="/console/duplicates/review" class="buttons">
  <input type="hidden" name="_csrf" value="${ctx.csrf}"><input type="hidden" name="job" value="${current.job}"><input type="hidden" name="group" value="${g.group}">
  ${g.processed && g.processed_at ? html`<span class="done">${g.split_at ? t('split_at', { at: minute(g.split_at) }) : t('confirmed_at', { at: minute(g.processed_at) })}</span>` : ''}
  ${!g.processed || g.split_at ? html`<button type="submit" name="decision" value="confirm">${t('confirm')}</button>` : ''}
  ${g.split_at ? '' : html`<button type="submit" name="decision" value="split" class="secondary">${t('split')}</button>`}
</form>
</article>`;
  })}`
  : ''}`;
  return layout(ctx, t('dup_title'), body);
}

export interface CounterView {
  name: 'contact' | 'dedupe' | 'light';
  available: number;
  free: { remaining: number; size: number; reset_on: string };
  subscription: { left: number; size: number; renews_on: string } | null;
  packs: { left: number; bought: number };
  auto_topup: { active: boolean; size: number; monthly_cap_eur: number; spent_month_eur: number };
  usage: { used: number; total: number; last_used: string | null };
  state: string;
  warning: string | null;
}

export function creditPage(ctx: PageContext, counters: CounterView[], usage: { month: string; days: number; series: Record<string, Record<number, number>> }): Html {
  const { t } = ctx;
  const days = Array.from({ length: usage.days }, (_, i) => i + 1);
  return layout(
    ctx,
    t('credit_title'),
    html`<h1>${t('credit_title')}</h1>
<p class="intro">${t('credit_intro')}</p>
<div class="counters">${counters.map(
      (c) => html`<section class="card counter${c.warning ? ' warn' : ''}" aria-labelledby="c-${c.name}">
<h2 id="c-${c.name}">${t(`counter_${c.name}` as TextKey)}</h2>
<p class="big"><span class="num">${c.available}</span> <span>${t('available').toLowerCase()}</span></p>
<dl>
<dt>${t('state')}</dt><dd><span class="state s-${c.state}">${t(`state_${c.state}` as TextKey)}</span></dd>
<dt>${t('free_left')}</dt><dd>${c.free.remaining} / ${c.free.size}</dd>
<dt>${t('subscription')}</dt><dd>${c.subscription ? `${c.subscription.left} / ${c.subscription.size} (${c.subscription.renews_on})` : t('none')}</dd>
<dt>${t('packs')}</dt><dd>${t('packs_value', { left: c.packs.left, bought: c.packs.bought })}</dd>
<dt>${t('auto_topup')}</dt><dd>${c.auto_topup.active ? t('auto_on', { size: c.auto_topup.size, cap: c.auto_topup.monthly_cap_eur, spent: c.auto_topup.spent_month_eur }) : t('auto_off')}</dd>
<dt>${t('used_month')}</dt><dd>${c.usage.used}</dd>
<dt>${t('warning')}</dt><dd class="warning">${c.warning ?? t('none')}</dd>
</dl></section>`,
    )}</div>
<section class="card" aria-labelledby="usage-title">
<h2 id="usage-title">${t('usage_chart', { month: usage.month })}</h2>
<div class="chart"><canvas id="usage-chart" role="img" aria-label="${t('usage_chart', { month: usage.month })}"></canvas></div>
<details><summary>${t('usage_table')}</summary><div class="scroll"><table id="usage-table">
<thead><tr><th scope="col">${t('day')}</th>${counters.map((c) => html`<th scope="col">${t(`counter_${c.name}` as TextKey)}</th>`)}</tr></thead>
<tbody>${days.map((d) => html`<tr><th scope="row">${d}</th>${counters.map((c) => html`<td>${usage.series[c.name]?.[d] ?? 0}</td>`)}</tr>`)}</tbody>
</table></div></details>
</section>
${jsonBlock('usage-data', { days, series: counters.map((c) => ({ label: t(`counter_${c.name}` as TextKey), data: days.map((d) => usage.series[c.name]?.[d] ?? 0) })) })}`,
    ['/console/assets/chart.umd.min.js', '/console/assets/console.js'],
  );
}

export function tokensPage(ctx: PageContext, tokens: TokenRecord[], fresh: { token: string; id: string } | null, notice?: string): Html {
  const { t } = ctx;
  const status = (tk: TokenRecord) => (tk.revoked ? 'revoked' : tk.expiry && Date.parse(tk.expiry) <= Date.now() ? 'expired' : 'active');
  const when = (iso: string | null) => (iso ? minute(iso) : t('never'));
  return layout(
    ctx,
    t('tokens_title'),
    html`<h1>${t('tokens_title')}</h1>
<p class="intro">${t('tokens_intro')}</p>
${fresh
  ? html`<div class="card fresh" role="status"><p>${t('new_token')}</p><p><code id="fresh-token" class="token">${fresh.token}</code> <small>(${fresh.id})</small></p></div>`
  : ''}
<section class="card" aria-labelledby="tokens-list">
<h2 id="tokens-list">${t('tokens_title')}</h2>
${tableOrEmpty(t, 'tokens-table', ['token_id', 'created', 'last_used', 'requests', 'expiry', 'status', 'actions'], tokens.map(
      (tk) => html`<tr data-token="${tk.id}" data-status="${status(tk)}"><td><code>${tk.id}</code></td><td>${when(tk.created)}</td><td>${when(tk.last_used)}</td><td>${tk.requests}</td><td>${tk.expiry ? when(tk.expiry) : t('never')}</td>
<td><span class="state s-${status(tk)}">${t(status(tk) as TextKey)}</span></td>
<td>${status(tk) === 'active'
        ? html`<form method="post" action="/console/tokens/${tk.id}/revoke" class="inline"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button type="submit" class="secondary" aria-label="${t('revoke')} ${tk.id}">${t('revoke')}</button></form>
<form method="post" action="/console/tokens/${tk.id}/regenerate" class="inline"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button type="submit" class="secondary" aria-label="${t('regenerate')} ${tk.id}">${t('regenerate')}</button></form>`
        : ''}</td></tr>`,
    ), 'no_tokens')}
</section>
<form method="post" action="/console/tokens/create" class="card row">
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <div class="field"><label for="token-expiry">${t('expires_optional')}</label><input id="token-expiry" name="expiry" type="date"></div>
  <div class="buttons"><button type="submit">${t('create_token')}</button></div>
</form>`,
    [],
    notice ? { kind: 'info', text: notice } : undefined,
  );
}

export function errorPage(ctx: PageContext, status: number, message: string): Html {
  return layout(ctx, ctx.t('error'), html`<h1>${ctx.t('error')} ${status}</h1><p>${message}</p><p><a href="/console/">recapito</a></p>`);
}
