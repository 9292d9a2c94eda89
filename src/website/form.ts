import { isIP } from 'node:net';

import { trimEdges } from '../email/syntax.js';
import { editDistance } from '../email/typos.js';

export const MAX_URLS = 3;

/** Up to 3 addresses written in one field, separated by spaces, semicolons, bars or ", ". */
export function splitWebsites(field: string): string[] {
  return field
    .split(/[\s;|]+|,\s+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
    .slice(0, MAX_URLS);
}

export interface WebsiteForm {
  url: URL;
  /** The scheme was not written: the check may fall back from https to http. */
  schemeGuessed: boolean;
  changed: boolean;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Puts a written address in form: scheme completed (https when missing), mistyped scheme and www repaired, case of
 * scheme and host, credentials and surrounding punctuation dropped. Undefined when it cannot be a website address.
 */
export function normaliseWebsite(written: string): WebsiteForm | undefined {
  let s = trimEdges(written.trim(), `<("'[`, `>)"'].,;:!?`);
  // "htp://", "http//", "https;//", "http:/": a mistyped web scheme; any other scheme is not a website
  const scheme = /^([a-z]{2,6})(?:[:;]+\/*|\/\/)/i.exec(s);
  if (scheme?.[1]) {
    const word = scheme[1].toLowerCase();
    const rest = s.slice(scheme[0].length);
    if (word === 'https' || (word.endsWith('s') && editDistance(word, 'https', 1) <= 1)) s = `https://${rest}`;
    else if (editDistance(word, 'http', 1) <= 1) s = `http://${rest}`;
    else return undefined;
  }
  // "ww.", "wwww.", "www," before a domain: the www label mistyped
  s = s.replace(/^(https?:\/\/)?(w{2,4})[.,](?=[^./]+\.)/i, (_m, prefix: string | undefined) => `${prefix ?? ''}www.`);
  const schemeGuessed = !/^https?:\/\//i.test(s);
  let url: URL;
  try {
    url = new URL(schemeGuessed ? `https://${s}` : s);
  } catch {
    return undefined;
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  const host = url.hostname;
  if (isIP(host.replace(/^\[|\]$/g, '')) === 0) {
    const labels = host.split('.');
    if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return undefined;
    const tld = labels[labels.length - 1]!;
    if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return undefined;
  }
  const href = url.href;
  const trimmed = written.trim();
  const changed = href !== trimmed && href !== `${trimmed}/`;
  return { url, schemeGuessed, changed };
}
