import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { capability as contactCapability } from '../contact/service.js';
import type { ContactItem } from '../contact/schema.js';
import { resolveCountry } from '../countries/resolve.js';
import { charge as chargeCredit, refundDurably, type ChargeTicket, type CreditCharge, type PendingCharge } from '../credit/ledger.js';
import { answer, requirePayer, type Services } from '../http/context.js';
import { chargeHeaders, processContext } from '../http/endpoint.js';
import { ApiError } from '../http/errors.js';
import { toEnglishInput } from '../http/keys.js';
import { finishResult } from '../http/outcomes.js';
import { isPlainObject, validate } from '../http/validation.js';
import { suggestRequest, type Hint, type SuggestRequest } from './schema.js';
import { attributionFor, displayName, findMunicipalities, houseNumbers, parsedOf, placeOf, readQuery, searchStreets } from './service.js';
import { foreignAttribution, foreignHouseNumbers, foreignStreets, foreignSuggestCountries } from './foreign.js';
import { checkSession, enterSession, findSession, markSelected, sweepSessions, unmarkSelected, type SuggestSession } from './session.js';

export const SUGGEST_PATHS = ['/api/v1/suggest', '/api/v1/suggerisci'] as const;

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
  if (blank(value)) throw new ApiError('validation_failed', { field, problem: 'is required for select' }, [{ field, problem: 'required' }]);
  return (value as string).trim();
}

/** Select: the contact engine on the chosen street; one contact verification per session and street. */
async function select(services: Services, req: FastifyRequest, reply: FastifyReply, r: SuggestRequest, session: SuggestSession): Promise<FastifyReply> {
  const payer = requirePayer(req);
  const streetId = requireField(r.street_id, 'street_id');
  const street = session.offered[streetId];
  if (!street) {
    throw new ApiError('validation_failed', { field: 'street_id', problem: 'not among the streets suggested in this session' }, [{ field: 'street_id', problem: 'not suggested in this session' }]);
  }
  const first = markSelected(services.db, session, streetId);
  let charge: CreditCharge;
  let ticket: ChargeTicket | null = null;
  const pending: PendingCharge = chargeCredit(services.db, payer, 'contact', first ? 1 : 0);
  try {
    ({ charge, ticket } = await pending.decided);
  } catch (error) {
    if (first) unmarkSelected(services.db, session, streetId);
    throw error;
  }
  const foreign = session.country !== 'IT';
  const item: ContactItem = {
    address: `${foreign ? street.name : displayName(`${street.street_type} ${street.name}`)}${blank(r.house_number) ? '' : ` ${r.house_number?.trim()}`}`,
    city: foreign ? street.province || street.municipality : street.municipality,
    province: foreign ? '' : street.province,
    country_code: session.country,
    ...(blank(r.postcode) ? {} : { postcode: r.postcode?.trim() }),
  };
  let result;
  try {
    const [one] = await contactCapability.process([item], processContext(services, req));
    if (!one) throw new Error('the contact engine answered nothing');
    result = finishResult(one, req.ctx.language);
  } catch (error) {
    if (first && ticket) {
      await pending.durable;
      await refundDurably(services.db, ticket, 1);
      unmarkSelected(services.db, session, streetId);
    }
    throw error;
  }
  await pending.durable;
  chargeHeaders(reply, charge);
  return answer(req, reply, { ...result, credit: charge });
}

async function suggest(services: Services, req: FastifyRequest, reply: FastifyReply, r: SuggestRequest, token: string, country: string): Promise<FastifyReply> {
  // house-number phase: a street selected in this session
  if (!blank(r.street_id)) {
    const session = await enterSession(services.db, token, r.session, country);
    const streetId = (r.street_id as string).trim();
    const street = session.offered[streetId];
    if (!street || !session.selected.includes(streetId)) throw new ApiError('selection_required', {}, { street_id: streetId });
    const typed = r.house_number?.trim() ?? '';
    const foreign = country !== 'IT';
    const { hints, exists } = foreign ? await foreignHouseNumbers(street, streetId, typed) : await houseNumbers(street, streetId, typed);
    return answer(req, reply, {
      ok: true,
      phase: 'house_numbers',
      hints,
      parsed: { street: foreign ? street.name : displayName(`${street.street_type} ${street.name}`), house_number: typed || null, postcode: blank(r.postcode) ? null : (r.postcode as string).trim() },
      attribution: foreign ? foreignAttribution(country) : await attributionFor([street.municipality]),
      supported: true,
      exists: typed !== '' && exists,
    });
  }
  const read = readQuery(r.q ?? '');
  const city = blank(r.city) ? read.city : (r.city as string).trim();
  const postcode = blank(r.postcode) ? read.postcode : (r.postcode as string).trim();
  const province = blank(r.province) ? read.province : (r.province as string).trim();
  const parsed = { ...parsedOf(read), postcode };
  // refused calls fail before the search; the call is counted, with the streets it offers, in one write
  checkSession(services.db, token, r.session, country);
  if (country !== 'IT') {
    const found = await foreignStreets(country, read.street, city, postcode);
    await enterSession(services.db, token, r.session, country, Date.now(), found.offered);
    return answer(req, reply, { ok: true, phase: 'streets', hints: found.hints, parsed, attribution: found.attribution, supported: true });
  }
  let place = await placeOf(city, postcode, province);
  let hints: Hint[] = [];
  let offered = {};
  if (read.street !== '' && (place.length > 0 || province)) {
    const found = await searchStreets(read.street, place, province);
    hints = found.hints;
    offered = found.offered;
  } else if (place.length === 0 && read.street !== '') {
    // no place yet: what was typed may be the municipality itself
    place = await findMunicipalities({ name: read.street });
    hints = place.slice(0, 10).map((m) => ({ type: 'municipality', id: m.cadastral_code, name: m.name, municipality: m.name, area: m.province, source: 'registry' }));
    if (hints.length > 0) parsed.street = null;
  }
  await enterSession(services.db, token, r.session, country, Date.now(), offered);
  return answer(req, reply, {
    ok: true,
    phase: 'streets',
    hints,
    parsed,
    attribution: await attributionFor([...new Set(hints.map((h) => h.municipality))]),
    supported: true,
  });
}

export function registerSuggestRoutes(app: FastifyInstance, services: Services): void {
  const post = async (req: FastifyRequest, reply: FastifyReply) => {
    const body = toEnglishInput(req.body ?? {});
    if (!isPlainObject(body)) throw new ApiError('validation_failed', { field: '(body)', problem: 'must be a JSON object' }, [{ field: '(body)', problem: 'must be a JSON object' }]);
    const r = validate(suggestRequest, body);
    const token = tokenOf(req);
    if (r.action === 'select') requirePayer(req);
    const written = blank(r.country_code) ? r.country : r.country_code;
    const country = blank(written) ? 'IT' : (resolveCountry(written)?.iso2 ?? (written as string).trim().toUpperCase());
    const live = findSession(services.db, token, r.session);
    if (live && live.country !== country) throw new ApiError('session_country', {}, { session_country: live.country, requested: country });
    if (!SUGGEST_COUNTRIES.has(country) && !foreignSuggestCountries().has(country)) {
      const read = readQuery(r.q ?? '');
      return answer(req, reply, { ok: true, phase: 'streets', hints: [], parsed: parsedOf(read), attribution: null, supported: false });
    }
    if (r.action === 'select') return select(services, req, reply, r, await enterSession(services.db, token, r.session, country));
    return suggest(services, req, reply, r, token, country);
  };
  for (const path of SUGGEST_PATHS) app.post(path, post);

  sweepSessions(services.db);
  const timer = setInterval(() => sweepSessions(services.db), 5 * 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
