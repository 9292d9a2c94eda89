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
