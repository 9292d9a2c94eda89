/**
 * The reference of the HTTP load bench: a bare Fastify JSON endpoint (same Fastify, same Node, logger off),
 * started as its own process in the same run as recapito, so the ratio measures what recapito adds to the stack.
 * POST /echo parses the JSON body and answers a small JSON object.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/echo', async (req) => {
  const body = req.body as Record<string, unknown>;
  return { ok: true, fields: Object.keys(body ?? {}).length };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`bare fastify listening on ${address}/echo`);
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
