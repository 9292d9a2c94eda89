/** What one phone field held, once numbers, extensions and notes are told apart. */
export interface SplitField {
  /** Up to 3 number texts as written (digits, spaces, a leading +). */
  numbers: string[];
  extension?: string;
  note?: string;
  /** Numbers found beyond the third. */
  dropped: number;
}

const MAX_NUMBERS = 3;

const EXTENSION = /\b(?:int(?:erno)?|ext(?:ension)?|est|x|dw|poste|anexo|interno)\s*[.:]?\s*(\d{1,6})\b/i;
/** Words that only say what kind of number follows: separators, not notes. */
const LABELS =
  /\b(?:tel(?:efono|ephone|efon)?|cell(?:ulare)?|cel|mob(?:ile|il)?|fax|uff(?:icio)?|casa|ab(?:itazione)?|fisso|whatsapp|wa|ph(?:one)?|tlf|nr|n|numero|o|oppure|e|or|and|und|ou|y|oder)\b\.?\s*:?/gi;

const LETTER = /\p{L}/u;

/** Digits and spaces with at most a leading +: no label, note, extension or second number can hide in it. */
const PLAIN = /^\+?\d[\d ]*$/;

/** Pieces one number may span: a number is rarely written in more than 6 groups. */
const MAX_PIECES = 6;

/**
 * Groups the pieces of a segment into numbers by the numbering plan: of all the ways to cut it at the
 * separators (space, `/`, `-`, `.`), the one whose numbers are complete over the most pieces, then the
 * one with the fewest numbers. `02 1234567 / 333 1234567 / 06 1234567` is three numbers (joining
 * `06` to the mobile makes a longer valid mobile but leaves `1234567` alone), `06/1234567` stays one.
 * A piece written with `+` always starts a number.
 */
export function partition(tokens: readonly string[], isComplete: (digits: string) => boolean): string[] {
  const n = tokens.length;
  // best[i]: the best cut of the first i pieces: pieces inside complete numbers, numbers used, where the last starts
  const best: { covered: number; numbers: number; from: number }[] = [{ covered: 0, numbers: 0, from: 0 }];
  for (let i = 1; i <= n; i++) {
    let pick = { covered: -1, numbers: 0, from: 0 };
    for (let j = Math.max(0, i - MAX_PIECES); j < i; j++) {
      if (tokens.slice(j + 1, i).some((t) => t.startsWith('+'))) continue;
      const before = best[j]!;
      const numbers = before.numbers + 1;
      // the plan is asked only when its answer can change the pick: not even a complete number here would beat it
      const most = before.covered + i - j;
      if (most < pick.covered || (most === pick.covered && numbers >= pick.numbers)) continue;
      const covered = before.covered + (isComplete(tokens.slice(j, i).join('')) ? i - j : 0);
      if (covered > pick.covered || (covered === pick.covered && numbers < pick.numbers)) pick = { covered, numbers, from: j };
    }
    best.push(pick);
  }
  const out: string[] = [];
  for (let i = n; i > 0; i = best[i]!.from) out.unshift(tokens.slice(best[i]!.from, i).join(''));
  return out;
}

/**
 * Splits a phone field into numbers. A `/`, `-` or space may sit inside one number (02/1234567) or between two;
 * the numbering plan decides which ([`partition`]).
 */
export function splitPhoneField(field: string, isComplete: (digits: string) => boolean): SplitField {
  // what most fields are: one number in digits and spaces, at most the longest Italian number; nothing to tell apart
  if (PLAIN.test(field)) {
    const number = field.replace(/ /g, '');
    if (number.length - (number.startsWith('+') ? 1 : 0) <= 11) return { numbers: [number], dropped: 0 };
    // a longer one (+39 333 1234567) that the plan reads whole: no cut covers more pieces with fewer numbers, so it is
    // [`partition`]'s answer too, when one number may span all its pieces
    if (field.split(' ').filter(Boolean).length <= MAX_PIECES && isComplete(number)) return { numbers: [number], dropped: 0 };
  }
  let text = field.replace(/[\u2010-\u2015\u2212]/g, '-');
  let extension: string | undefined;
  const notes: string[] = [];
  // extensions, notes and labels are all written in letters: a field without any has none
  if (LETTER.test(text)) {
    const ext = EXTENSION.exec(text);
    if (ext) {
      extension = ext[1];
      text = text.slice(0, ext.index) + ' | ' + text.slice(ext.index + ext[0].length);
    }
    text = text.replace(/\(([^)]*\p{L}[^)]*)\)/gu, (_, inner: string) => {
      notes.push(inner.trim());
      return ' | ';
    });
    text = text.replace(LABELS, ' | ');
    text = text.replace(/[\p{L}][\p{L}'’.]*(?:\s+[\p{L}][\p{L}'’.]*)*/gu, (words: string) => {
      notes.push(words.trim());
      return ' | ';
    });
  }

  const found: string[] = [];
  for (const segment of text.split(/[|;,\n\r]+/)) {
    const tokens = segment
      .replace(/[()[\]]/g, ' ')
      .split(/[\s/.\-]+/)
      .filter((t) => /\d/.test(t))
      .map((t) => t.replace(/[^\d+]/g, ''));
    // two numbers need more than 11 digits between them (the longest Italian number has 11): one number, no test
    const single = tokens.join('').replace(/\D/g, '').length <= 11 && !tokens.slice(1).some((t) => t.startsWith('+'));
    const here = single ? [tokens.join('')] : partition(tokens, isComplete);
    // a few trailing digits after a complete number are an extension written without its label
    const last = here[here.length - 1];
    const before = here[here.length - 2];
    if (here.length > 1 && last && before && last.length < 5 && isComplete(before) && !extension) {
      extension = last;
      here.pop();
    }
    found.push(...here);
  }
  const numbers = found.filter((n) => /\d/.test(n));
  const note = notes.filter(Boolean).join('; ') || undefined;
  return {
    numbers: numbers.slice(0, MAX_NUMBERS),
    ...(extension ? { extension } : {}),
    ...(note ? { note } : {}),
    dropped: Math.max(0, numbers.length - MAX_NUMBERS),
  };
}
