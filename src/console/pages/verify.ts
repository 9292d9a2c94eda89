import type { FastifyPluginAsync } from 'fastify';

import { verifyPage } from '../views.js';
import { ConsoleError, type ConsoleKit } from '../kit.js';

/** The verify page: one record or a pasted list verified through the API, each outcome code explained. */
export const verifyPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { client, pageContext, sendPage, page, apiLanguage, english, explained } = kit;
  scope.get('/verify', page(async (req, reply, user) => sendPage(reply, verifyPage(pageContext(req, reply, user)))));

  scope.post(
    '/api/suggest',
    page(async (req, reply, user) => {
      const body = req.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ConsoleError(400, 'json_object_expected');
      const { _csrf: _ignored, ...payload } = body as Record<string, unknown>;
      const res = await client.call(user.account, 'POST', '/api/v1/suggest', apiLanguage(req), payload);
      return reply.code(res.status).send(explained(english(res.body, res.headers), apiLanguage(req)));
    }),
  );

  scope.post(
    '/api/contact',
    page(async (req, reply, user) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const text = (k: string) => (typeof b[k] === 'string' ? (b[k] as string).trim() : '');
      const address = [text('street'), text('house_number')].filter(Boolean).join(' ');
      const item = Object.fromEntries(Object.entries({ address, postcode: text('postcode'), city: text('city'), province: text('province') }).filter(([, v]) => v !== ''));
      const res = await client.call(user.account, 'POST', '/api/v1/contact', apiLanguage(req), item);
      return reply.code(res.status).send(explained(english(res.body, res.headers), apiLanguage(req)));
    }),
  );
};
