#!/usr/bin/env node
// @ts-check
/**
 * `npm run audit` (issue 33): the dependency audit that runs without the network.
 *
 * Rust: cargo-audit (pinned version, installed with `cargo install --locked` when missing) reads Cargo.lock
 * against the offline RustSec snapshot (`RECAPITO_ADVISORY_DB`, default ../shared/advisory-db). Every finding
 * is printed with its fix (the patched versions) or the reason it does not apply, from `audit.json`; an
 * unexplained vulnerability fails the run. Warnings (unmaintained, unsound, yanked) are printed with their
 * explanation; an unexplained one is reported but does not fail.
 *
 * npm: the advisory endpoint is not reachable offline. What can be checked is what runs at install time or
 * as native code: the packages with install scripts (package-lock's `hasInstallScript`) and with native code
 * (prebuilt `.node` binaries, `binding.gyp`), each pinned to the version reviewed in `audit.json`. A new one, or
 * another version, fails the run until it is reviewed. With the network, an operator runs `npm audit`
 * (docs/operations.md, Dependency audit).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CARGO_AUDIT_VERSION = '0.22.2';
const DB = path.resolve(ROOT, process.env.RECAPITO_ADVISORY_DB ?? path.join('..', 'shared', 'advisory-db'));

/** @type {{ rust: Record<string, { crate: string, reason: string }>, npm: { native: Record<string, string> } }} */
const explained = JSON.parse(readFileSync(path.join(ROOT, 'audit.json'), 'utf8'));
let failures = 0;
const fail = (/** @type {string} */ line) => {
  failures++;
  console.log(`  FAIL ${line}`);
};

// ---- Rust ---------------------------------------------------------------------------------------------
function snapshotOf(/** @type {string} */ db) {
  const notes = path.join(db, 'SNAPSHOT.md');
  if (existsSync(notes)) {
    const text = readFileSync(notes, 'utf8');
    const commit = /commit ([0-9a-f]{7,40})/.exec(text)?.[1] ?? 'unknown commit';
    const date = /\((\d{4}-\d{2}-\d{2})\)/.exec(text)?.[1] ?? 'unknown date';
    return `${date} (commit ${commit.slice(0, 12)}, ${notes})`;
  }
  const git = spawnSync('git', ['-C', db, 'log', '-1', '--format=%cs (commit %h)'], { encoding: 'utf8' });
  return git.status === 0 ? `${git.stdout.trim()}, ${db}` : `date unknown, ${db}`;
}

function cargoAudit() {
  const have = spawnSync('cargo', ['audit', '--version'], { encoding: 'utf8' });
  if (have.status === 0 && have.stdout.includes(CARGO_AUDIT_VERSION)) return;
  console.log(`installing cargo-audit ${CARGO_AUDIT_VERSION} (cargo install --locked; a few minutes once)`);
  const install = spawnSync('cargo', ['install', 'cargo-audit', '--version', CARGO_AUDIT_VERSION, '--locked'], { stdio: 'inherit' });
  if (install.status !== 0) throw new Error('cargo install cargo-audit failed');
}

/** @param {{ id: string, package: string, title: string, url?: string | null }} advisory */
const named = (advisory) => `${advisory.id} ${advisory.package}: ${advisory.title}`;

function rust() {
  if (!existsSync(path.join(DB, 'crates'))) throw new Error(`no RustSec database at ${DB} (RECAPITO_ADVISORY_DB)`);
  console.log(`RustSec advisory database: ${snapshotOf(DB)}`);
  cargoAudit();
  const run = spawnSync('cargo', ['audit', '--db', DB, '--no-fetch', '--stale', '--json', '--file', path.join(ROOT, 'Cargo.lock')], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (!run.stdout.trim().startsWith('{')) throw new Error(`cargo audit did not answer: ${run.stderr}`);
  const report = JSON.parse(run.stdout);
  console.log(`cargo-audit ${CARGO_AUDIT_VERSION}: ${report.database['advisory-count']} advisories, ${report.lockfile['dependency-count']} crates in Cargo.lock`);
  const seen = new Set();
  const vulnerabilities = report.vulnerabilities.list;
  console.log(`vulnerabilities: ${vulnerabilities.length}`);
  for (const v of vulnerabilities) {
    seen.add(v.advisory.id);
    const fix = v.versions.patched.length ? `fix: upgrade ${v.package.name} ${v.package.version} to ${v.versions.patched.join(' or ')}` : 'no fixed version';
    const why = explained.rust[v.advisory.id];
    if (why) console.log(`  explained ${named(v.advisory)} (${v.package.name} ${v.package.version}; ${fix}): ${why.reason}`);
    else fail(`${named(v.advisory)} (${v.package.name} ${v.package.version}) ${v.advisory.url ?? ''} — ${fix}, or explain it in audit.json`);
  }
  for (const [kind, list] of Object.entries(report.warnings ?? {})) {
    console.log(`warnings (${kind}): ${list.length}`);
    for (const w of list) {
      const id = w.advisory?.id ?? `${kind}:${w.package.name}`;
      seen.add(id);
      const fix = w.versions?.patched?.length ? `; fix: ${w.package.name} ${w.versions.patched.join(' or ')}` : '';
      const label = w.advisory ? named(w.advisory) : `${w.package.name} ${w.package.version} is ${kind}`;
      const why = explained.rust[id];
      console.log(`  ${why ? 'explained' : 'NOT EXPLAINED (warning)'} ${label} (${w.package.name} ${w.package.version}${fix})${why ? `: ${why.reason}` : ''}`);
    }
  }
  for (const id of Object.keys(explained.rust)) if (!seen.has(id)) console.log(`  note: ${id} is explained in audit.json but no longer found: remove it`);
}

// ---- npm ----------------------------------------------------------------------------------------------
/** Whether an installed package folder holds native code: a prebuilt binary or a node-gyp build file. */
function nativeIn(/** @type {string} */ dir, depth = 0) {
  if (!existsSync(dir) || depth > 3) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && (entry.name.endsWith('.node') || entry.name === 'binding.gyp')) return true;
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'test' && nativeIn(path.join(dir, entry.name), depth + 1)) return true;
  }
  return false;
}

function npm() {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  /** @type {Map<string, string[]>} */
  const found = new Map();
  for (const [where, pkg] of Object.entries(lock.packages)) {
    if (!where) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const why = [];
    if (pkg.hasInstallScript) why.push('install script');
    // prebuilt binaries ship as packages for one platform (os/cpu); only the one for this machine is installed
    if (pkg.os || pkg.cpu) why.push(`prebuilt binary for ${[...(pkg.os ?? []), ...(pkg.cpu ?? [])].join('/')}`);
    else if (nativeIn(path.join(ROOT, where))) why.push('native code');
    if (why.length) found.set(`${name}@${pkg.version}`, why);
  }
  const platforms = [...found.keys()].filter((k) => found.get(k)?.every((w) => w.startsWith('prebuilt')));
  console.log(`\nnpm (offline): ${found.size} packages run an install script or carry native code (${platforms.length} of them per-platform prebuilt binaries)`);
  /** Reviewed per-platform binaries, one line per explanation (the same for every platform of a package). */
  const binaries = new Map();
  for (const [key, why] of found) {
    const reviewed = explained.npm.native[key];
    if (!reviewed) fail(`${key} (${why.join(', ')}) is not in audit.json npm.native: review it (what its install script runs, where its binary comes from) and pin it`);
    else if (platforms.includes(key)) binaries.set(reviewed, [...(binaries.get(reviewed) ?? []), key]);
    else console.log(`  pinned ${key} (${why.join(', ')}): ${reviewed}`);
  }
  for (const [reviewed, keys] of binaries) console.log(`  pinned ${keys.length} prebuilt binaries (${keys.join(', ')}): ${reviewed}`);
  for (const key of Object.keys(explained.npm.native)) if (!found.has(key)) console.log(`  note: ${key} is pinned in audit.json but no longer in package-lock.json: remove it`);
  // npm's install-script policy (package.json `allowScripts`) approves exactly the reviewed packages with an install script
  const allowed = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).allowScripts ?? {});
  const scripted = [...found].filter(([, why]) => why.includes('install script')).map(([key]) => key.slice(0, key.lastIndexOf('@')));
  for (const name of scripted) if (!allowed.includes(name)) fail(`${name} runs an install script but is not in package.json allowScripts: review it, pin it in audit.json, then approve it (npm approve-scripts ${name})`);
  for (const name of allowed) if (!scripted.includes(name)) console.log(`  note: ${name} is in package.json allowScripts but runs no install script: remove it`);
  console.log(`  allowScripts approves ${allowed.join(', ')}`);
  console.log('  npm advisories need the registry: where it is reachable, run `npm audit --omit=dev` (and `npm audit` for the tools)');
}

// both halves run, whatever the other found; a half that cannot run at all is exit 2
let broken = false;
for (const half of [rust, npm]) {
  try {
    half();
  } catch (error) {
    broken = true;
    console.error(`audit: ${error instanceof Error ? error.message : String(error)}`);
  }
}
if (broken) process.exit(2);
if (failures) {
  console.log(`\n${failures} unexplained finding(s): fix them or explain them in audit.json`);
  process.exit(1);
}
console.log('\naudit: every finding is fixed or explained');
