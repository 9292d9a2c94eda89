import { spawn } from 'node:child_process';

import { startPostgres } from './postgres.js';

/**
 * `node dist/test/helpers/with-postgres.js <command> [args…]`: starts a throwaway PostgreSQL cluster
 * (./postgres.ts), runs the command with RECAPITO_STATE_URL pointing at it, stops the cluster by its pid
 * and exits with the command's status. `npm run test:pg` runs the whole ava suite this way: every test
 * server then keeps its state in a database of its own on that cluster (./state-url.ts).
 */
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-postgres <command> [args…]');
  process.exit(2);
}
const cluster = await startPostgres();
console.error(`PostgreSQL test cluster on 127.0.0.1:${cluster.port} (pid ${cluster.pid})`);
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, RECAPITO_STATE_URL: cluster.url } });
const stop = () => child.kill('SIGTERM');
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
const status = await new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
await cluster.stop();
process.exit(status);
