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

/** A real `recapito serve` process on a random port, for kill tests and benchmarks. */
export function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) {
        resolve({
          child,
          url: m[1],
          peakRssMiB: () => {
            const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
            const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
            return Math.round(kb / 1024);
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}
