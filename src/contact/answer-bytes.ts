/**
 * A synchronous batch's answers from the core's records as bytes (`verifyContactAnswerBytes`), written as
 * bytes: the same records as `answer.ts` reads from text (`P` an Italian address, `F` a foreign one, `J` a
 * foreign one whole), the same finished answers as `answerText` and `foreignAnswerText` write, but the core's
 * slices stay where the core wrote them and the request's texts (a few, remembered) are kept as their bytes
 * (`ResultBytes`). Only the short fields a text is chosen by (codes, country code, register, attribution) are
 * decoded. Issue 30: as one string, a foreign batch's answers were decoded by V8 into two bytes a character
 * (every postal-form message has a `’`), cut, joined and measured and encoded again on their way to the socket.
 */
import { attributionIn } from '../http/attribution.js';
import type { Language } from '../http/language.js';
import type { OutcomeTable } from '../http/outcomes.js';
import { KEPT, ResultBytes } from '../http/result-text.js';
import type { ContactResult } from '../native.js';
import { content, finish, textsOf, verified } from './answer.js';
import { writeForeignAnswer, type ForeignOut } from './foreign-answer.js';

/** Ends every field of the core's records (`address::answer::FIELD`). */
const FIELD = 0x01;
const P = 0x50;
const F = 0x46;
/** Fields of a record after its kind: an `F` record's (four, then twelve slices), every other's. */
const FOREIGN_FIELDS = 16;
const FIELDS = 6;

/** One record of the core's answers: its kind and where its fields are in `bytes`. */
export interface AnswerRecord {
  kind: number;
  bytes: Buffer;
  /** Field `k` is `bytes[at[k]]` up to `at[k + 1] - 1` (its end). */
  at: number[];
}

/**
 * The records of a batch, in order. Read through a Buffer made here over the core's memory: the addon's Buffer
 * has a map of its own (its prototype set after it was made), which dies with it, and code that had met it in a
 * record's field was thrown away at every full collection and compiled again (`--trace-deopt`: "weak objects").
 */
export function readAnswerBytes(core: Buffer): AnswerRecord[] {
  const bytes = Buffer.from(core.buffer, core.byteOffset, core.length);
  const out: AnswerRecord[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const kind = bytes[pos]!;
    pos += 2;
    const n = kind === F ? FOREIGN_FIELDS : FIELDS;
    const at = new Array<number>(n + 1);
    for (let k = 0; k < n; k++) {
      at[k] = pos;
      const end = bytes.indexOf(FIELD, pos);
      // every field of the core's records ends with FIELD: a record cut short is a bug, not a loop
      if (end < 0) throw new Error(`the core's answers end inside a record (field ${k} of ${n})`);
      pos = end + 1;
    }
    at[n] = pos;
    out.push({ kind, bytes, at });
  }
  return out;
}

/** Field `k` of a record as a string (short fields: codes, names). */
function field(r: AnswerRecord, k: number): string {
  const start = r.at[k]!;
  const end = r.at[k + 1]! - 1;
  return start === end ? '' : r.bytes.toString('utf8', start, end);
}

/** Texts by their bytes: the texts written between slices are a few remembered strings. Bounded; emptied when full. */
const textBytes = new Map<string, Buffer>();
const TEXT_BYTES_CAP = 10_000;

function bytesOf(text: string): Buffer {
  let b = textBytes.get(text);
  if (b === undefined) {
    b = Buffer.from(text, 'utf8');
    if (textBytes.size >= TEXT_BYTES_CAP) textBytes.clear();
    textBytes.set(text, b);
  }
  return b;
}

/** A record's answer as parts of a `ResultBytes`: slices of its fields (from field `first`) and texts. */
class BytesOut implements ForeignOut {
  readonly parts: (number | Buffer)[] = [];
  constructor(
    private readonly r: AnswerRecord,
    private readonly first: number,
  ) {}
  slice(k: number, open = false): void {
    const start = this.r.at[this.first + k]!;
    const end = this.r.at[this.first + k + 1]! - (open ? 2 : 1);
    if (end > start) this.parts.push(start, end);
  }
  empty(k: number): boolean {
    return this.r.at[this.first + k + 1]! - 1 === this.r.at[this.first + k]!;
  }
  text(text: string): void {
    if (text !== '') this.parts.push(bytesOf(text));
  }
}

// one kept for the life of the process (see `KEPT` in result-text.ts)
KEPT.push(new BytesOut({ kind: 0, bytes: Buffer.alloc(0), at: [] }, 0));

/** `,"message":"…"` of an Italian answer (its head and the attribution in the language), remembered. */
const messages = new Map<string, string>();

function messageOf(message: string, codes: string, language: Language): string {
  const head = verified(codes);
  const key = `${language}|${head ? 1 : 0}|${message}`;
  let text = messages.get(key);
  if (text === undefined) {
    const t = textsOf(language);
    text = `,"message":"${head ? t.messageHead : t.checkedHead}${attributionIn(message, language, content)}"`;
    if (messages.size >= TEXT_BYTES_CAP) messages.clear();
    messages.set(key, text);
  }
  return text;
}

/** An Italian record's finished answer (`answerText`'s text as bytes). Fields: codes, city type, head, middle, rest, message. */
function italianAnswer(r: AnswerRecord, language: Language, table: OutcomeTable): ResultBytes {
  const codes = field(r, 0);
  const cityType = field(r, 1);
  const t = textsOf(language);
  const out = new BytesOut(r, 2);
  out.slice(0);
  out.text(t.country);
  out.slice(1);
  if (cityType !== '') out.text(t.cityTypes.get(cityType) ?? 'null');
  out.slice(2);
  out.text(messageOf(field(r, 5), codes, language));
  out.text(finish(codes, language, table));
  return new ResultBytes(r.bytes, out.parts);
}

/** A foreign record's whole result: its slices joined (`F`), or its JSON (`J`). */
export function foreignRecordResult(r: AnswerRecord): ContactResult {
  if (r.kind !== F) return JSON.parse(field(r, 0)) as ContactResult;
  let text = '';
  for (let k = 4; k < FOREIGN_FIELDS; k++) text += field(r, k);
  return JSON.parse(text) as ContactResult;
}

/**
 * A record's finished answer as bytes, or null for a foreign one `present` must write (a `J` record, or a country
 * the catalogue lacks by its code): the caller presents `foreignRecordResult`.
 */
export function answerBytes(r: AnswerRecord, language: Language, postalForm: boolean, countryLine: Language, table: OutcomeTable): ResultBytes | null {
  if (r.kind === P) return italianAnswer(r, language, table);
  if (r.kind !== F) return null;
  const head = { foreignCodes: field(r, 0), code: field(r, 1), verifiedIn: field(r, 2), attribution: field(r, 3) };
  const out = new BytesOut(r, 4);
  return writeForeignAnswer(head, field(r, 7), out, language, postalForm, countryLine, table) ? new ResultBytes(r.bytes, out.parts) : null;
}
