/**
 * The before/after check of a rewrite: a bench computes one line per answer, `write` stores them before the
 * change, `check` compares them after it byte for byte, prints the first differing lines and exits 1 on any.
 * Used by the *-answers benches (contact, path, phone, email, tax-code).
 */
import { readFileSync, writeFileSync } from 'node:fs';

export type AnswerMode = 'write' | 'check';

/** `<bench> write|check <file>` from the command line. */
export function answerArgs(bench: string): { mode: AnswerMode; file: string } {
  const [mode, file] = process.argv.slice(2);
  if ((mode !== 'write' && mode !== 'check') || !file) throw new Error(`usage: ${bench}.js write|check <file>`);
  return { mode, file };
}

/** Writes the lines, or compares them with those written; `call(i)` names the call behind line i in a difference. */
export function writeOrCheck(mode: AnswerMode, file: string, lines: string[], call: (i: number) => string = (i) => `line ${i + 1}`): void {
  if (mode === 'write') {
    writeFileSync(file, `${lines.join('\n')}\n`);
    console.log(`${lines.length} answers written to ${file}`);
    return;
  }
  const stored = readFileSync(file, 'utf8').trimEnd().split('\n');
  if (stored.length !== lines.length) console.log(`line count: stored ${stored.length}, now ${lines.length}`);
  const differing = lines.flatMap((line, i) => (line === stored[i] ? [] : [i]));
  for (const i of differing.slice(0, 10)) console.log(`${call(i)}\n  stored ${stored[i]}\n  now    ${lines[i]}`);
  console.log(`${lines.length} answers compared: ${differing.length} differ`);
  if (differing.length > 0 || stored.length !== lines.length) process.exitCode = 1;
}
