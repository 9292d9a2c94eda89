import { domainToASCII } from 'node:url';

import emailAddresses from 'email-addresses';

/** The written address after form cleaning, and which certain repairs were needed to make it an address. */
export interface CleanedEmail {
  address: string;
  /** Spaces, case, mailto:, angle brackets, display name, trailing punctuation, extra addresses. */
  formChanged: boolean;
  /** Commas for dots or doubled dots in the domain: the written text was not an address at all. */
  domainRepaired: boolean;
}

/** Drops the given characters from both ends; linear, unlike an anchored `[…]+$` regex that rescans long junk. */
export function trimEdges(text: string, leading: string, trailing: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && leading.includes(text[start]!)) start++;
  while (end > start && trailing.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * An address already in its clean form: lower-case ASCII, one @, no space, quote, bracket, comma or doubled dot in
 * the domain, nothing to trim at either end. Every step of `cleanEmail` leaves such a text as it is.
 */
const CLEAN = /^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

export function cleanEmail(raw: string): CleanedEmail {
  if (CLEAN.test(raw)) return { address: raw, formChanged: false, domainRepaired: false };
  const original = raw.normalize('NFC').trim();
  let s = original;
  // a field holding several addresses keeps the first
  if ((s.match(/@/g)?.length ?? 0) > 1) {
    const first = s.split(/[\s;,]+/).find((part) => part.includes('@'));
    if (first && (first.match(/@/g)?.length ?? 0) === 1) s = first;
  }
  const angle = /<([^<>]*@[^<>]*)>/.exec(s);
  if (angle?.[1]) s = angle[1];
  else {
    // "Mario Rossi mario@x.it": capitalised words before a whole address are a display name without brackets;
    // other spaces ("mario @ x.it", "mario rossi@x.it") were typed inside the address and are removed below
    const words = s.split(/\s+/);
    const at = words.findIndex((w) => /^[^@]+@[^@]+$/.test(w));
    if (at > 0 && words.slice(0, at).every((w) => /^\p{Lu}/u.test(w)) && at === words.length - 1) s = words[at]!;
  }
  s = s.replace(/@{2,}/g, '@');
  s = trimEdges(s, `'(<[`, `'")>].,;:`)
    .replace(/^mailto:/i, '')
    .replace(/\?.*$/, '')

    // spaces go, except inside a quoted local part ("mario rossi"@…)
    .replace(/("[^"]*")|\s+/g, (_m, quoted: string | undefined) => quoted ?? '');
  const at = s.lastIndexOf('@');
  if (at <= 0) return { address: s, formChanged: s !== original, domainRepaired: false };
  let local = s.slice(0, at);
  let domain = s.slice(at + 1).toLowerCase();
  const quoted = local.length > 1 && local.startsWith('"') && local.endsWith('"');
  if (!quoted) local = local.replace(/,/g, '.').toLowerCase();
  const formChanged = `${local}@${domain}` !== original;
  const repaired = domain.replace(/,/g, '.').replace(/\.{2,}/g, '.').replace(/^\./, '');
  const domainRepaired = repaired !== domain;
  domain = repaired;
  return { address: `${local}@${domain}`, formChanged, domainRepaired };
}

export interface ParsedEmail {
  local: string;
  /** As written (Unicode allowed). */
  domain: string;
  /** IDNA form used for DNS. */
  asciiDomain: string;
  /** `[192.0.2.1]`: valid syntax, nothing to look up. */
  literal: boolean;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A host name `domainToASCII` gives back as it is: lower-case letters, digits and hyphens, a top-level label of
 * letters (a last label of digits or 0x… would be read as an IPv4 address), no punycode label to decode.
 */
const ASCII_DOMAIN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]+$/;

/**
 * An ASCII dot-atom local part at an LDH host name: exactly RFC 5322's dot-atom grammar, a strict subset of what the
 * full parser accepts. Most addresses are this simple; everything else goes to the parser.
 */
const DOT_ATOM = /^([a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@([a-z0-9-]+(?:\.[a-z0-9-]+)+)$/i;

/**
 * RFC 5321/5322 (with RFC 6531 UTF-8) addr-spec, then a hostname domain. Strict: the obsolete RFC 5322 forms
 * (`a . b@…`) are not valid in SMTP, and allowing them makes the parser backtrack for milliseconds on junk.
 */
export function parseEmail(address: string): ParsedEmail | undefined {
  // the SMTP limits first, in UTF-16 units (never more than octets): they also keep the full parser's input short
  const at = address.lastIndexOf('@');
  if (address.length > 254 || at < 1 || at > 64) return undefined;
  let local: string;
  let domain: string;
  const simple = DOT_ATOM.exec(address);
  if (simple?.[1] && simple[2]) [local, domain] = [simple[1], simple[2]];
  else {
    const parsed = emailAddresses.parseOneAddress({ input: address, rfc6532: true, rejectTLD: true, strict: true });
    if (!parsed || parsed.type !== 'mailbox' || parsed.name) return undefined;
    // the local part as written (a quoted one keeps its quotes: it is what SMTP sends and counts)
    [local, domain] = [address.slice(0, address.lastIndexOf('@')), parsed.domain];
  }
  if (Buffer.byteLength(local, 'utf8') > 64) return undefined;
  if (/^\[.*\]$/.test(domain)) return { local, domain, asciiDomain: domain, literal: true };
  const asciiDomain = ASCII_DOMAIN.test(domain) && !domain.includes('xn--') ? domain : domainToASCII(domain);
  if (!asciiDomain || asciiDomain.length > 253) return undefined;
  if (Buffer.byteLength(local, 'utf8') + 1 + asciiDomain.length > 254) return undefined;
  const labels = asciiDomain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return undefined;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return undefined;
  return { local, domain, asciiDomain, literal: false };
}
