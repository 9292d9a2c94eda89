import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../../src/config.js';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Peak resident memory of the server process so far, in MiB (Linux VmHWM). */
  peakRssMiB(): number;
}

/**
 * A node process (`args` after the node binary) that prints "listening on URL": resolves once it does,
 * rejects if it exits first. The servers of kill tests and the HTTP benches (recapito, a bare endpoint,
 * another build under a profiler) all start through it.
 */
export function startListening(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** A real `recapito serve` process on a random port, for kill tests and benchmarks. */
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const { child, url } = await startListening([path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, 'serve', '--port', '0'], env);
  return {
    child,
    url,
    peakRssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
  };
}

/** What the client of a burst saw: 200s, other statuses, and requests whose answer never came. */
export interface Burst {
  ok: number;
  other: number;
  inDoubt: number;
}

/**
 * `connections` clients POST to `path` as fast as they are answered until `killAfter` 200s have come
 * back, then the server is killed with SIGKILL; resolves once it has exited. A request cut by the kill
 * is in doubt: its commit may or may not have landed.
 */
export async function burstUntilKilled(server: ServerProcess, token: string, path: string, body: (worker: number, i: number) => unknown, connections: number, killAfter: number): Promise<Burst> {
  const seen: Burst = { ok: 0, other: 0, inDoubt: 0 };
  let killed = false;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  const loop = async (worker: number) => {
    for (let i = 0; ; i++) {
      try {
        const res = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body(worker, i)),
        });
        await res.arrayBuffer();
        if (res.status === 200) seen.ok += 1;
        else seen.other += 1;
      } catch {
        // the connection died with the server: this request's fate is unknown to the client
        seen.inDoubt += 1;
        return;
      }
      if (seen.ok >= killAfter && !killed) {
        killed = true;
        server.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, w) => loop(w)));
  await exited;
  return seen;
}
