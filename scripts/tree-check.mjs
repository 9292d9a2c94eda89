#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/tree-check.mjs [--json]` (issue 31): the layer rules of docs/architecture.md, counted over the
 * tree. Each rule counts the files (or names) that break it; `LIMITS` holds what the tree may have today.
 * A count above its limit fails (exit 1; `test/tree.test.ts` runs this in `npm test`). A limit only goes
 * down: the aim of every rule is 0.
 *
 * The rules:
 * - `registerImportsEngine`: the register (crates/core/src/register) holds data and indexes; it imports
 *   no engine (address, dedupe, postal, foreign, tax_code). Engines import the register.
 * - `httpImportsCapability`: src/http is shared machinery; it imports no capability folder. It may import
 *   src/state, src/jobs, src/config.ts and src/native.ts. Capabilities come in through src/capabilities.ts.
 * - `workerKnowsDedupe`: the job worker (src/jobs/worker.ts) runs every job kind the same way.
 * - `longSourceFiles`: no source file (not a test) over 800 lines.
 * - `foreignStreetMatchers`: one street matcher for every country; crates/core/src/foreign defines none of
 *   its own (a function that scores, searches or matches streets).
 * - `architectureNamesMissing`: every code name docs/architecture.md gives exists in the tree (paths as
 *   files, identifiers as words in the sources).
 * - `postcodeFormsOutsidePostal`: one owner of postcode forms (crates/core/src/postal: `postcode::key`,
 *   `judge`); no Rust function elsewhere whose name says postcode puts one into a compact form of its own
 *   (keeps only letters and digits). Italy's leading zeros (`normalize_postcode`) are not a compact form.
 * - `contactDoorsOutsideContact`: one way into contact verification, the contact capability's `run`; no
 *   TypeScript outside src/contact (and the door file src/native.ts) calls the contact core's doors.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tree to check: this checkout, or another one named by TREE_CHECK_ROOT (the check's own test uses it). */
const ROOT = path.resolve(process.env.TREE_CHECK_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));

/** What the tree may have today (issue 31's bar is 0 for each). Lower a limit when the tree improves. */
export const LIMITS = {
  registerImportsEngine: 0,
  httpImportsCapability: 0,
  workerKnowsDedupe: 0,
  longSourceFiles: 0,
  foreignStreetMatchers: 0,
  architectureNamesMissing: 0,
  contactDoorsOutsideContact: 0,
  postcodeFormsOutsidePostal: 0,
};

const MAX_LINES = 800;
const ENGINES = ['address', 'dedupe', 'postal', 'foreign', 'tax_code'];
/** What src/http may import besides itself: the state store, the job system, configuration, the native addon. */
const HTTP_MAY_IMPORT = new Set(['http', 'state', 'jobs', 'config.js', 'native.js']);

/** @param {string} dir @returns {string[]} files under dir, relative to ROOT */
function walk(dir) {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  /** @type {string[]} */
  const out = [];
  for (const entry of readdirSync(abs)) {
    const rel = path.join(dir, entry);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...walk(rel));
    else out.push(rel);
  }
  return out;
}

const read = (/** @type {string} */ rel) => readFileSync(path.join(ROOT, rel), 'utf8');

/** A Rust or TypeScript file that is a test: its own name says so, or it sits in a tests folder. */
const isTest = (/** @type {string} */ rel) =>
  /(^|\/)tests?(\/|\.rs$)/.test(rel) || /_tests\.rs$/.test(rel) || /\.test\.ts$/.test(rel) || rel.startsWith('test/');

function registerImportsEngine() {
  const engine = new RegExp(`\\bcrate::(${ENGINES.join('|')})\\b`);
  return walk('crates/core/src/register').filter((f) => f.endsWith('.rs') && engine.test(read(f)));
}

function httpImportsCapability() {
  return walk('src/http').filter((f) => {
    if (!f.endsWith('.ts')) return false;
    const targets = [...read(f).matchAll(/(?:from|import)\s*\(?\s*'\.\.\/([^'/]+)/g)].map((m) => m[1]);
    return targets.some((t) => !HTTP_MAY_IMPORT.has(t));
  });
}

function workerKnowsDedupe() {
  const worker = 'src/jobs/worker.ts';
  if (!existsSync(path.join(ROOT, worker))) return [];
  return read(worker)
    .split('\n')
    .map((line, i) => ({ line, at: `${worker}:${i + 1}` }))
    .filter(({ line }) => /dedupe/i.test(line))
    .map(({ at }) => at);
}

function longSourceFiles() {
  const sources = [...walk('crates').filter((f) => /\/src\/.*\.rs$/.test(f)), ...walk('src').filter((f) => f.endsWith('.ts')), ...walk('bin'), ...walk('scripts')];
  return sources
    .filter((f) => !isTest(f) && !f.includes('/target/'))
    .map((f) => ({ f, lines: read(f).split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ f, lines }) => `${f} (${lines} lines)`);
}

function foreignStreetMatchers() {
  const matcher = /\bfn\s+\w*(?:score|search|match|find|choose|rank)\w*street\w*|\bfn\s+\w*street\w*_(?:score|search|match|find|choose|rank)\w*/;
  return walk('crates/core/src/foreign').filter((f) => f.endsWith('.rs') && !isTest(f) && matcher.test(read(f)));
}

/** Every word written in the sources (identifiers), to find a code name the architecture page gives. */
function sourceWords() {
  const words = new Set();
  const files = [...walk('crates').filter((f) => /\/src\/.*\.rs$/.test(f) && !f.includes('/target/')), ...walk('src'), ...walk('test'), ...walk('bench'), ...walk('scripts'), ...walk('bin')];
  files.push(...['package.json', 'index.d.ts', 'core-types.d.ts'].filter((f) => existsSync(path.join(ROOT, f))));
  for (const f of files) {
    if (!/\.(rs|ts|mjs|js|json|sql)$/.test(f)) continue;
    for (const m of read(f).matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) words.add(m[0]);
  }
  return words;
}

/** A path the page gives, looked up from the root and from the folders a short path is written relative to. */
const PATH_BASES = ['', 'src', 'crates/core/src', 'crates/node/src', 'crates', '../shared/data'];

function pathExists(/** @type {string} */ p) {
  return PATH_BASES.some((b) => existsSync(path.join(ROOT, b, p)));
}

/**
 * A code name is a backticked path (`src/contact/service.ts`, `address/resolve.rs`, optionally `::item`)
 * or a backticked identifier that could only be code: with `::` or `.` between identifiers, snake_case, or
 * camelCase/PascalCase with an inner capital (`processContacts`, `ContactDictionaries`). Plain words
 * (`Germania`, `compact`), examples with other characters, HTTP paths and commands are not code names.
 */
function architectureNamesMissing() {
  const page = 'docs/architecture.md';
  const words = sourceWords();
  const missing = new Set();
  for (const m of read(page).matchAll(/`([^`\n]+)`/g)) {
    const name = m[1].trim();
    const pathLike = /^[\w.<>-]+(\/[\w.<>-]+)+\.(rs|ts|md|mjs|js|json|csv|txt|sql)(::\w+)?$/.exec(name);
    if (pathLike) {
      if (name.includes('<')) continue; // a pattern such as docs/<capability>.md
      const [file, item] = name.split('::');
      if (!pathExists(file)) missing.add(name);
      else if (item && !new RegExp(`\\b${item}\\b`).test(readFirst(file))) missing.add(name);
      continue;
    }
    if (!/^[A-Za-z_][\w]*((::|\.)[A-Za-z_][\w]*)*$/.test(name)) continue;
    const parts = name.split(/::|\./);
    const looksLikeCode = parts.length > 1 || name.includes('_') || /[a-z][A-Z]/.test(name);
    if (!looksLikeCode) continue;
    if (parts.length > 1 && /^(crate|self|super)$/.test(parts[0])) {
      const module = parts.slice(1).join('/');
      if (!['crates/core/src/', 'crates/node/src/'].some((b) => existsSync(path.join(ROOT, b, module)) || existsSync(path.join(ROOT, b, `${module}.rs`)))) missing.add(name);
      continue;
    }
    if (!parts.every((p) => words.has(p))) missing.add(name);
  }
  return [...missing];
}

function postcodeFormsOutsidePostal() {
  // a function named for postcodes whose body (to its closing brace at the start of a line) keeps letters and digits
  const compact = /\bfn\s+\w*postcode\w*\s*\([^]*?\n\s{0,4}\}/g;
  return walk('crates/core/src')
    .filter((f) => f.endsWith('.rs') && !isTest(f) && !f.startsWith(path.join('crates', 'core', 'src', 'postal') + path.sep))
    .filter((f) => [...read(f).matchAll(compact)].some((m) => /alphanumeric/.test(m[0])));
}

function contactDoorsOutsideContact() {
  const door = /\bverifyContact(?:s|Answers)(?:Sync)?\s*\(/;
  return walk('src').filter((f) => f.endsWith('.ts') && !f.startsWith(path.join('src', 'contact') + path.sep) && f !== path.join('src', 'native.ts') && door.test(read(f)));
}

function readFirst(/** @type {string} */ p) {
  for (const b of PATH_BASES) {
    const abs = path.join(ROOT, b, p);
    if (existsSync(abs)) return readFileSync(abs, 'utf8');
  }
  return '';
}

/** @returns {Record<keyof typeof LIMITS, string[]>} the offenders of each rule */
export function checkTree() {
  return {
    registerImportsEngine: registerImportsEngine(),
    httpImportsCapability: httpImportsCapability(),
    workerKnowsDedupe: workerKnowsDedupe(),
    longSourceFiles: longSourceFiles(),
    foreignStreetMatchers: foreignStreetMatchers(),
    architectureNamesMissing: architectureNamesMissing(),
    contactDoorsOutsideContact: contactDoorsOutsideContact(),
    postcodeFormsOutsidePostal: postcodeFormsOutsidePostal(),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = checkTree();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ found, limits: LIMITS }));
  } else {
    let over = 0;
    for (const [rule, offenders] of Object.entries(found)) {
      const limit = LIMITS[/** @type {keyof typeof LIMITS} */ (rule)];
      const mark = offenders.length > limit ? 'OVER' : offenders.length === 0 ? 'ok' : 'left';
      if (offenders.length > limit) over++;
      console.log(`${mark.padEnd(4)} ${rule}: ${offenders.length} (limit ${limit})`);
      for (const o of offenders) console.log(`       ${o}`);
    }
    process.exit(over ? 1 : 0);
  }
}
