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

/**
 * Splits a phone field into numbers. A `/`, `-` or space may sit inside one number (02/1234567) or between two;
 * a piece joins the number before it unless that number is already complete and joining would spoil it.
 */
export function splitPhoneField(field: string, isComplete: (digits: string) => boolean): SplitField {
  let text = field.replace(/[\u2010-\u2015\u2212]/g, '-');
  let extension: string | undefined;
  const ext = EXTENSION.exec(text);
  if (ext) {
    extension = ext[1];
    text = text.slice(0, ext.index) + ' | ' + text.slice(ext.index + ext[0].length);
  }
  const notes: string[] = [];
  text = text.replace(/\(([^)]*\p{L}[^)]*)\)/gu, (_, inner: string) => {
    notes.push(inner.trim());
    return ' | ';
  });
  text = text.replace(LABELS, ' | ');
  text = text.replace(/[\p{L}][\p{L}'’.]*(?:\s+[\p{L}][\p{L}'’.]*)*/gu, (words: string) => {
    notes.push(words.trim());
    return ' | ';
  });

  const found: string[] = [];
  for (const segment of text.split(/[|;,\n\r]+/)) {
    const tokens = segment
      .replace(/[()[\]]/g, ' ')
      .split(/[\s/.\-]+/)
      .filter((t) => /\d/.test(t))
      .map((t) => t.replace(/[^\d+]/g, ''));
    const here: string[] = [];
    let acc = '';
    // two numbers need more than 11 digits between them (the longest Italian number has 11): one number, no test
    const single = tokens.join('').replace(/\D/g, '').length <= 11 && !tokens.slice(1).some((t) => t.startsWith('+'));
    for (const token of single ? [tokens.join('')] : tokens) {
      if (acc && (token.startsWith('+') || (isComplete(acc) && !isComplete(acc + token)))) {
        here.push(acc);
        acc = token;
      } else {
        acc += token;
      }
    }
    if (acc) here.push(acc);
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
