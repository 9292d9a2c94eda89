/**
 * The answers of POST /api/v1/contact on a few thousand real inputs, stored and compared byte for byte:
 * the guard of work that must not change any answer (issue 14 made the single call faster). Inputs are
 * Bologna's house numbers as `http.bench.ts` builds them, register samples written the ways of
 * `contact-perturb.ts`, foreign and option variants, in English, Italian (keys and path) and German,
 * each as a single call and again inside batches (batch-level options included). Status, content type and
 * length, and the body's text as sent; the `credit` object is left out: it is the account's balance, not
 * the contact's answer.
 *
 *   node dist/bench/contact-answers.js write <file>   stores the answers (one JSON line per call)
 *   node dist/bench/contact-answers.js check <file>   compares, prints the differing calls, exits 1 on any
 */

import { addPack } from '../src/state/ledger.js';
import { sampleStreets } from './bench-doors.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { answerArgs, writeOrCheck } from './answer-file.js';
import { bolognaSample } from './bologna-contacts.js';
import { PERTURBATIONS, rng, type Input } from './contact-perturb.js';

type Body = Record<string, unknown>;


/** Register samples, each written in every way `contact-perturb.ts` knows. */
async function perturbed(perKind: number): Promise<Body[]> {
  const samples = await sampleStreets({ count: perKind * 2, seed: 17 });
  const r = rng(41);
  const out: Body[] = [];
  for (const [, perturb] of Object.entries(PERTURBATIONS)) {
    for (let i = 0; i < perKind; i++) {
      const s = samples[(i * 7) % samples.length]!;
      const other = samples[(i * 13 + 5) % samples.length]!;
      out.push({ ...(perturb(s, r, other, i) satisfies Input) });
    }
  }
  return out;
}

/** Foreign addresses, country names in several languages and codes, and a country named only in the city. */
const FOREIGN: Body[] = [
  { address: '10 Downing Street', postcode: 'SW1A 2AA', city: 'London', country: 'Regno Unito' },
  { address: '10 Downing Street', city: 'London', country_code: 'GB' },
  { address: 'Main Street 1', city: 'Nowhere', country: 'Atlantide' },
  { address: 'Unter den Linden 77', postcode: '10117', city: 'Berlin', country: 'Germania' },
  { address: 'Unter den Linden 77', postcode: '10117', city: 'Berlin', country: 'Deutschland' },
  { address: 'rue de Rivoli 99', postcode: '75001', city: 'Paris', country: 'FR' },
  { address: 'Bahnhofstrasse 1', postcode: '8001', city: 'Zürich', country: 'Svizzera' },
  { address: 'Calle de Alcalá 42', postcode: '28014', city: 'Madrid', country_code: 'es' },
  { address: 'Damrak 1', postcode: '1012 LG', city: 'Amsterdam', country: 'Paesi Bassi' },
  { address: 'Grand-Rue 12', postcode: 'L-1660', city: 'Luxembourg', country: 'Lussemburgo' },
  { address: 'Strøget 5', postcode: '1160', city: 'København K', country: 'Danimarca' },
  { address: 'Rua Augusta 100', city: 'Lisboa Portugal', foreign: 'detect' },
  { address: 'Via Roma 1', city: 'Lugano (Svizzera)', foreign: 'detect' },
  { address: 'Via Roma 1', city: 'Bologna', foreign: 'detect' },
  { address: 'Via Roma 1', city: 'Bologna', country: 'Italia' },
  { address: 'Via Roma 1', city: 'Bologna', country_code: 'IT' },
  { address: 'Via Roma 1', city: 'Bologna', country: '' },
];

/** Options a client may send, applied to a share of the inputs. */
const OPTIONS: Body[] = [{}, { postal_form: true }, { preserve_original: true }, { precision: 1 }, { precision: 5 }, { debug: true }, { foreign: 'detect' }, { postal_form: 'si', preserve_original: 1 }];

/** Fields of a person with a tax code, so that the contact's tax-code check answers too. */
const PERSON: Body = { tax_code: 'rssmra80c15a944x', last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-03-15' };

const ITALIAN_KEYS: Record<string, string> = { address: 'indirizzo', postcode: 'cap', city: 'localita', province: 'provincia' };

interface Call {
  path: string;
  body: Body;
}

function calls(inputs: Body[]): Call[] {
  const out: Call[] = [];
  inputs.forEach((input, i) => {
    const options = OPTIONS[i % OPTIONS.length]!;
    const person = i % 11 === 0 ? PERSON : {};
    const body = { ...input, ...options, ...person };
    out.push({ path: '/api/v1/contact', body });
    // every input also in Italian; a share through the Italian path and keys, a share in German
    if (i % 3 === 0) {
      const italian = Object.fromEntries(Object.entries(body).map(([k, v]) => [ITALIAN_KEYS[k] ?? k, v]));
      out.push({ path: '/api/v1/contatto', body: { ...italian, lingua: 'it' } });
    } else out.push({ path: '/api/v1/contact', body: { ...body, language: 'it' } });
    if (i % 5 === 0) out.push({ path: '/api/v1/contact', body: { ...body, language: 'de' } });
  });
  // batches of the same inputs: mixed options inside one batch, and options sent at the batch's top
  for (let at = 0, k = 0; at < inputs.length; at += 200, k++) {
    const items = inputs.slice(at, at + 200).map((input, j) => ({ id: `b${at + j}`, ...input, ...(j % 4 === 0 ? OPTIONS[(j / 4) % OPTIONS.length] : {}) }));
    out.push({ path: '/api/v1/contact', body: { items, language: ['en', 'it', 'fr'][k % 3], ...OPTIONS[k % OPTIONS.length] } });
  }
  return out;
}

async function answers(server: TestServer, list: Call[]): Promise<string[]> {
  const out: string[] = [];
  for (const c of list) {
    const res = await fetch(`${server.url}${c.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    });
    // the body's text as sent (byte for byte, not re-serialised), cut before the credit, which comes last
    const text = await res.text();
    const credit = Math.max(text.lastIndexOf(',"credit":'), text.lastIndexOf(',"credito":'));
    const body = credit > 0 ? text.slice(0, credit) : text;
    out.push(`${JSON.stringify({ status: res.status, language: res.headers.get('content-language'), type: res.headers.get('content-type'), length: res.headers.get('content-length') })} ${body}`);
  }
  return out;
}

async function main(): Promise<void> {
  const { mode, file } = answerArgs('contact-answers');
  const server = await startServer({ rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 } });
  try {
    await addPack(server.state, server.account, 'contact', 10_000_000);
    const inputs = [...(await bolognaSample(2000)), ...(await perturbed(60)), ...FOREIGN];
    const list = calls(inputs);
    const got = await answers(server, list);
    writeOrCheck(mode, file, got, (i) => `call ${i} ${JSON.stringify(list[i])}`);
  } finally {
    await server.close();
  }
}

await main();
