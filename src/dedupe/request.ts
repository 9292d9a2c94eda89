import { randomBytes } from 'node:crypto';

import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { englishBody } from '../http/body.js';
import { englishKey, toEnglishInput } from '../http/keys.js';
import { isPlainObject, validate } from '../http/validation.js';
import { compareRequest, dedupeRecord, type CompareRequest } from './schema.js';

/*
 * The dedupe POST reads up to 100,000 records: mapping every key of every record to English and running
 * zod on each cost about half a second of the queue call. Most lists are written in the schema's own
 * English keys and types, so each record is first held to a check compiled once from the zod schema
 * (`compileCheck`): a record that passes is already English (its keys are the schema's) and valid (its
 * values have the schema's types), and is kept as sent. Any other record is mapped as every body is
 * (`toEnglishInput`), and the whole request then goes through zod as before, so that errors read the
 * same. zod stays the one description of a record: the check only accepts a subset of what it accepts.
 */

type Check = (value: unknown) => boolean;
const never: Check = () => false;

/** The parts of zod's internal definition the compiler reads (zod 4). */
interface Def {
  type: string;
  checks?: unknown[];
  innerType?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

/**
 * A predicate that accepts only values `schema` accepts unchanged: strings, finite numbers, null,
 * optional, unions, arrays and objects whose keys are all declared and already English. Any other
 * construct (refinements, checks, defaults, transforms…) compiles to "no", which sends the value to zod.
 */
export function compileCheck(schema: z.ZodType): Check {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const plain = !def.checks || def.checks.length === 0;
  switch (def.type) {
    case 'string':
      return plain ? (v) => typeof v === 'string' : never;
    case 'number':
      return plain ? (v) => typeof v === 'number' && Number.isFinite(v) : never;
    case 'boolean':
      return plain ? (v) => typeof v === 'boolean' : never;
    case 'optional': {
      const inner = compileCheck(def.innerType as z.ZodType);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = compileCheck(def.innerType as z.ZodType);
      return (v) => v === null || inner(v);
    }
    case 'union': {
      const options = (def.options ?? []).map(compileCheck);
      return (v) => options.some((o) => o(v));
    }
    case 'array': {
      if (!plain) return never;
      const element = compileCheck(def.element as z.ZodType);
      return (v) => Array.isArray(v) && v.every(element);
    }
    case 'object': {
      const fields = Object.entries(def.shape ?? {}).map(([key, s]) => [key, compileCheck(s)] as const);
      // a key that key mapping would rename is never taken as is
      const known = new Map(fields.filter(([key]) => englishKey(key) === key));
      const required = fields.filter(([, check]) => !check(undefined)).map(([key]) => key);
      return (v) => {
        if (!isPlainObject(v)) return false;
        for (const key of required) if (!(key in v)) return false;
        for (const key of Object.keys(v)) {
          const check = known.get(key);
          if (!check || !check(v[key])) return false;
        }
        return true;
      };
    }
    default:
      return never;
  }
}

let plainRecord: Check | undefined;
/**
 * A record in English keys that zod accepts as it is. Compiled at its first use, not when this module
 * loads: which keys are English is known once the registry installed the key tables (src/capabilities.ts).
 */
export const isPlainRecord = (value: unknown): boolean => (plainRecord ??= compileCheck(dedupeRecord))(value);

const LISTS = ['records', 'reference'] as const;

/** A dedupe POST body in English, and whether its record lists already passed `isPlainRecord`. */
export interface DedupeBody {
  body: Record<string, unknown>;
  /** Every record of `records` (and of `reference`, if sent) is plain: zod need not see them. */
  plain: boolean;
}

/**
 * The body prelude of the dedupe POST: `englishBody`, with the record lists mapped record by record and
 * plain records left as sent. An English key still wins over its Italian twin (the envelope is mapped
 * by `toEnglishInput` itself, each list standing in as a tag unique to this call).
 */
export function dedupeBody(req: FastifyRequest): DedupeBody {
  const raw = req.body;
  if (!isPlainObject(raw)) return { body: englishBody(req), plain: false };
  const nonce = `\u0000${randomBytes(6).toString('hex')}:`;
  const lists = new Map<string, unknown[]>();
  const envelope: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value) && (LISTS as readonly string[]).includes(englishKey(key))) {
      lists.set(nonce + key, value);
      envelope[key] = nonce + key;
    } else {
      envelope[key] = value;
    }
  }
  const body = toEnglishInput(envelope) as Record<string, unknown>;
  let plain = true;
  for (const name of LISTS) {
    const tag = body[name];
    const list = typeof tag === 'string' ? lists.get(tag) : undefined;
    if (!list) {
      if (name === 'records' || body[name] !== undefined) plain = false;
      continue;
    }
    body[name] = list.map((record) => {
      if (isPlainRecord(record)) return record;
      plain = false;
      return toEnglishInput(record);
    });
  }
  return { body, plain };
}

/**
 * The compare request, validated: plain record lists are not walked again (the envelope alone goes
 * through zod, each list standing in as one empty record, or as itself when empty, so that the errors
 * are the ones zod gives); anything else goes through zod whole.
 */
export function compareOf({ body, plain }: DedupeBody): CompareRequest {
  if (!plain) return validate(compareRequest, body);
  const records = body.records as CompareRequest['records'];
  const reference = body.reference as CompareRequest['reference'];
  const stand = (list: unknown[]) => (list.length > 0 ? [{}] : list);
  const envelope = validate(compareRequest, { ...body, records: stand(records), ...(reference ? { reference: stand(reference) } : {}) });
  return { ...envelope, records, ...(reference ? { reference } : {}) };
}
