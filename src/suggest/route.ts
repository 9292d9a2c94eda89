import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { SUGGEST_PATHS, takeDailySelect } from '../state/tokens.js';
import { capability as contactCapability } from '../contact/service.js';
import type { ContactItem } from '../contact/schema.js';
import { resolveCountry } from '../countries/resolve.js';
import { creditState } from '../state/ledger.js';
import { attributionIn } from '../http/attribution.js';
import { chargeHeaders, chargedWork } from '../http/billing.js';
import { englishBody } from '../http/body.js';
import { answer, requirePayer, type Services } from '../http/context.js';
import { processContext } from '../http/endpoint.js';
import { ApiError, invalidField } from '../http/errors.js';
import { finishResult } from '../http/outcomes.js';
import type { PluginOptions } from '../http/plugin.js';
import { validate } from '../http/validation.js';
import { suggestRequest, type SuggestRequest } from './schema.js';
import { attributionFor, displayName, houseNumbers, parsedOf, readForeignQuery, readQuery, streetsPhase } from './service.js';
import { foreignAttribution, foreignHouseNumbers, foreignStreets, foreignSuggestCountries } from './foreign.js';
import { checkSession, enterSession, flushSessions, markSelected, readSession, sweepSessions, unmarkSelected, type OfferedStreet, type SessionRead, type SuggestSession } from './session.js';

export { SUGGEST_PATHS };

/** Countries whose street register is loaded: the only ones autocomplete serves. */
export const SUGGEST_COUNTRIES = new Set(['IT']);

function blank(s: string | undefined): boolean {
  return s === undefined || s.trim() === '';
}

function tokenOf(req: FastifyRequest): string {
  const token = req.ctx.caller?.tokenId;
  if (!token) throw new ApiError('unauthorized');
  return token;
}

function requireField(value: string | undefined, field: string): string {
  if (blank(value)) throw invalidField(field, 'required_for_select');
  return (value as string).trim();
}

/**
 * One of the caller's daily charged selects (suggest tokens with a cap, src/state/tokens.ts), or the 429
 * `select_cap` with Retry-After after `unmark` gave the street back; the function that returns the select.
 */
async function capped(services: Services, req: FastifyRequest, reply: FastifyReply, unmark: () => Promise<void>): Promise<(() => Promise<void>) | undefined> {
  const caller = req.ctx.caller;
  if (!caller) return undefined;
  try {
    return await takeDailySelect(services.state, caller);
  } catch (error) {
    await unmark();
    if (error instanceof ApiError) reply.header('Retry-After', String(error.extra.retry_after ?? 60));
    throw error;
  }
}

/** Select: the contact engine on the chosen street; one contact verification per session and street. */
async function select(services: Services, req: FastifyRequest, reply: FastifyReply, r: SuggestRequest, session: SuggestSession): Promise<FastifyReply> {
  const payer = requirePayer(req);
  const streetId = requireField(r.street_id, 'street_id');
  const street = session.offered[streetId];
  if (!street) {
    throw invalidField('street_id', 'not_suggested');
  }
  const first = await markSelected(services.state, session, streetId);
  const foreign = session.country !== 'IT';
  const item: ContactItem = {
    address: `${foreign ? street.name : displayName(`${street.street_type} ${street.name}`)}${blank(r.house_number) ? '' : ` ${r.house_number?.trim()}`}`,
    city: foreign ? street.province || street.municipality : street.municipality,
    province: foreign ? '' : street.province,
    country_code: session.country,
    ...(blank(r.postcode) ? {} : { postcode: r.postcode?.trim() }),
  };
  // a suggest token's daily cap counts the charged selects (a refined repeat of a street is free)
  const giveBack = first ? await capped(services, req, reply, () => unmarkSelected(services.state, session, streetId)) : undefined;
  // the street's first select is charged; a refused charge or a failed verification leaves it unselected
  const undo = first
    ? async () => {
        await giveBack?.();
        await unmarkSelected(services.state, session, streetId);
      }
    : undefined;
  const { value: result, charge } = await chargedWork(
    services.state,
    { payer, counter: 'contact', units: first ? 1 : 0 },
    async () => {
      const [one] = await contactCapability.run([item], processContext(services, req));
      if (!one) throw new Error('the contact engine answered nothing');
      return finishResult(one, req.ctx.language, contactCapability.outcomes);
    },
    undo,
  );
  chargeHeaders(reply, charge);
  return answer(req, reply, { ...result, credit: charge });
}

/**
 * A keystroke's answer (nothing charged): `outcome` empty and `credit`, the contact counter that a select
 * charges, as it stands (spec: every response carries both).
 */
async function uncharged(services: Services, req: FastifyRequest, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  body.outcome = [];
  body.credit = await creditState(services.state, requirePayer(req), 'contact');
  return body;
}

function sameStreet(a: OfferedStreet | undefined, b: OfferedStreet): boolean {
  return a !== undefined && a.cadastral_code === b.cadastral_code && a.index === b.index && a.name === b.name;
}

async function suggest(services: Services, req: FastifyRequest, reply: FastifyReply, r: SuggestRequest, token: string, country: string, stored: SessionRead): Promise<FastifyReply> {
  // house-number phase: a street selected in this session
  if (!blank(r.street_id)) {
    const streetId = (r.street_id as string).trim();
    const typed = r.house_number?.trim() ?? '';
    const foreign = country !== 'IT';
    const numbersOf = (s: OfferedStreet) => (foreign ? foreignHouseNumbers(s, streetId, typed) : houseNumbers(s, streetId, typed));
    // the numbers of the street the session already offered are looked up while the call is counted
    // (streets stay offered for the session's life); used only if the counted session agrees
    const known = stored.session?.offered[streetId];
    const early = known ? numbersOf(known) : undefined;
    early?.catch(() => undefined);
    const entered = enterSession(services.state, token, r.session, country);
    const session = entered instanceof Promise ? await entered : entered;
    const street = session.offered[streetId];
    if (!street || !session.selected.includes(streetId)) throw new ApiError('selection_required', {}, { street_id: streetId });
    const { hints, exists } = await (early && sameStreet(known, street) ? early : numbersOf(street));
    return answer(req, reply, await uncharged(services, req, {
      ok: true,
      phase: 'house_numbers',
      hints,
      parsed: { street: foreign ? street.name : displayName(`${street.street_type} ${street.name}`), house_number: typed || null, postcode: blank(r.postcode) ? null : (r.postcode as string).trim() },
      attribution: attributionIn(foreign ? foreignAttribution(country) : await attributionFor([street.municipality]), req.ctx.language),
      supported: true,
      exists: typed !== '' && exists,
    }));
  }
  // refused calls fail before the search; the call is counted with the streets it offers in one update
  checkSession(stored, country);
  if (country !== 'IT') {
    const read = readForeignQuery(country, r.q ?? '', r.city, r.postcode);
    const city = blank(r.city) ? read.city : (r.city as string).trim();
    const postcode = blank(r.postcode) ? read.postcode : (r.postcode as string).trim();
    const found = await foreignStreets(country, read.street, city, postcode);
    const entered = enterSession(services.state, token, r.session, country, Date.now(), found.offered);
    if (entered instanceof Promise) await entered;
    return answer(req, reply, await uncharged(services, req, { ok: true, phase: 'streets', hints: found.hints, parsed: { ...parsedOf(read), postcode }, attribution: attributionIn(found.attribution, req.ctx.language), supported: true }));
  }
  const trimmed = (s: string | undefined) => (blank(s) ? undefined : (s as string).trim());
  const found = await streetsPhase(r.q ?? '', { city: trimmed(r.city), postcode: trimmed(r.postcode), province: trimmed(r.province) });
  // counted in the book at once on LMDB: no promise to wait for (a keystroke's tick fewer)
  const entered = enterSession(services.state, token, r.session, country, Date.now(), found.offered);
  if (entered instanceof Promise) await entered;
  return answer(req, reply, await uncharged(services, req, { ok: true, phase: 'streets', hints: found.hints, parsed: found.parsed, attribution: attributionIn(found.attribution, req.ctx.language), supported: true }));
}

/**
 * The answer leaves only once the call's count is on disk (the server's onSend waits for it). A keystroke is
 * free: no charge starts a shared commit at the beginning of the call, as it does for the charged calls, so
 * the commit was asked only when the answer was ready, and its fsync came after the work with every
 * connection waiting on it. Asked as soon as the caller is known (right after the token check, before the
 * body is read), the commit and its fsync run while the call works. Nothing else changes: the same commit
 * carries the count, the answer still waits for it.
 */
const askCommit = (req: FastifyRequest, _reply: FastifyReply, done: () => void): void => {
  void req.ctx.caller?.counted();
  done();
};

/** POST /api/v1/suggest and /api/v1/suggerisci; expired sessions swept every five minutes. */
export const suggestRoutes: FastifyPluginAsync<PluginOptions> = async (app, { services }) => {
  const post = async (req: FastifyRequest, reply: FastifyReply) => {
    const r = validate(suggestRequest, englishBody(req));
    const token = tokenOf(req);
    if (r.action === 'select') requirePayer(req);
    const written = blank(r.country_code) ? r.country : r.country_code;
    const country = blank(written) ? 'IT' : (resolveCountry(written)?.iso2 ?? (written as string).trim().toUpperCase());
    const sessionRead = readSession(services.state, token, r.session);
    const stored = sessionRead instanceof Promise ? await sessionRead : sessionRead;
    const live = stored.session;
    if (live && live.country !== country) throw new ApiError('session_country', {}, { session_country: live.country, requested: country });
    if (!SUGGEST_COUNTRIES.has(country) && !foreignSuggestCountries().has(country)) {
      const read = readQuery(r.q ?? '');
      return answer(req, reply, await uncharged(services, req, { ok: true, phase: 'streets', hints: [], parsed: parsedOf(read), attribution: null, supported: false }));
    }
    if (r.action === 'select') return select(services, req, reply, r, await enterSession(services.state, token, r.session, country));
    // awaited, not returned: an async function handing on another's promise takes two more ticks
    return await suggest(services, req, reply, r, token, country, stored);
  };
  for (const path of SUGGEST_PATHS) app.post(path, { config: { rateClass: 'autocomplete', counter: 'contact' }, onRequest: askCommit }, post);

  // every node sweeps the shared sessions now and then; a failed sweep is tried again at the next
  const sweep = () => void sweepSessions(services.state).catch(() => undefined);
  sweep();
  const timer = setInterval(sweep, 5 * 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await flushSessions(services.state);
  });
};
