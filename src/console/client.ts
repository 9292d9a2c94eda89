import type { FastifyInstance } from 'fastify';

import { createToken, revokeToken } from '../state/tokens.js';
import type { StateStore } from '../state/store.js';
import { noteInternalToken } from './store.js';

/** The console's token for an account lives a day; a fresh one is made before it runs out. */
const TOKEN_LIFE_MS = 24 * 3600_000;
const RENEW_BEFORE_MS = 3600_000;

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  raw: string;
}

/**
 * The console is the service's own server-side client (spec, Authentication rule 6): each call goes
 * through the public API in-process (`inject`), with a token the console holds in memory for the
 * account, so every rule, charge, rate limit and language of the API applies unchanged, and no token
 * ever reaches a browser.
 */
export class ApiClient {
  private readonly tokens = new Map<string, { token: string; id: string; expires: number }>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly state: StateStore,
  ) {}

  private async tokenFor(account: string): Promise<string> {
    const known = this.tokens.get(account);
    if (known && known.expires - RENEW_BEFORE_MS > Date.now()) return known.token;
    const expires = Date.now() + TOKEN_LIFE_MS;
    const { token, record } = await createToken(this.state, account, { expiry: new Date(expires).toISOString(), internal: true });
    await noteInternalToken(this.state, record.id, true);
    if (known) await revokeToken(this.state, known.id);
    this.tokens.set(account, { token, id: record.id, expires });
    return token;
  }

  async call<T = Record<string, unknown>>(account: string, method: 'GET' | 'POST' | 'DELETE', url: string, language: string, payload?: unknown): Promise<ApiAnswer<T>> {
    const token = await this.tokenFor(account);
    const res = await this.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'accept-language': language, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
    const raw = res.body;
    let body: unknown = {};
    if (String(res.headers['content-type'] ?? '').includes('json')) body = JSON.parse(raw);
    return { status: res.statusCode, body: body as T, headers: res.headers, raw };
  }

  /** Revokes the tokens this process made (they would expire within a day anyway). */
  async close(): Promise<void> {
    const ids = [...this.tokens.values()].map((t) => t.id);
    this.tokens.clear();
    // already gone: nothing to revoke
    await Promise.all(ids.map((id) => revokeToken(this.state, id).catch(() => undefined)));
  }
}
