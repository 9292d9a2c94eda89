import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for the tests: `initdb` in a temp dir, `pg_ctl start` on a free
 * 127.0.0.1 port, stopped by its postmaster's pid. Uses the binaries on PATH, else Debian's
 * `/usr/lib/postgresql/<version>/bin` (what `apt-get install postgresql` gives CI). As root (CI
 * containers), the cluster runs as the `postgres` user: PostgreSQL refuses to run as root.
 */
export interface PgCluster {
  /** `postgres://…` of the cluster's `postgres` database. */
  url: string;
  port: number;
  dir: string;
  pid: number;
  /** A new empty database on this cluster, and its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

function binDir(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return path.dirname(onPath);
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('PostgreSQL binaries not found (initdb on PATH or /usr/lib/postgresql/<v>/bin): apt-get install postgresql');
  return path.join(root, versions[0], 'bin');
}

/** True when the binaries are there: tests that need PostgreSQL say so instead of failing obscurely. */
export function postgresAvailable(): boolean {
  try {
    binDir();
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function asOwner(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const passwd = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':');
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid: Number(passwd[2]), gid: Number(passwd[3]) };
}

function run(prefix: string[], command: string, args: string[]): void {
  const [cmd, ...rest] = [...prefix, command, ...args];
  const r = spawnSync(cmd as string, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} failed (${r.status}): ${r.stderr || r.stdout}`);
}

export interface PgOptions {
  /** fsync and synchronous commit on, as in production (benches); tests run without them, faster. */
  durable?: boolean;
}

/** A new empty database beside the one `url` names; answers its URL. */
export async function createDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const created = new URL(url);
  created.pathname = `/${name}`;
  return created.toString();
}

export async function startPostgres(options: PgOptions = {}): Promise<PgCluster> {
  const bin = binDir();
  const owner = asOwner();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-pg-'));
  if (owner.uid !== undefined) {
    chownSync(dir, owner.uid, owner.gid as number);
    chmodSync(dir, 0o700);
  }
  const data = path.join(dir, 'data');
  run(owner.prefix, path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '-N']);
  const port = await freePort();
  // throwaway: no fsync unless asked; enough connections for two nodes, a CLI and the test itself
  const durability = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${durability}`;
  run(owner.prefix, path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-o', settings, '-w', 'start']);
  const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let counter = 0;
  return {
    url,
    port,
    dir,
    pid,
    createDatabase: (name) => createDatabase(url, name ?? `t_${process.pid}_${Date.now().toString(36)}_${counter++}`),
    stop: async () => {
      // fast shutdown by pid (SIGINT), then wait for the postmaster to go
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // already gone
      }
      for (let i = 0; i < 200; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
