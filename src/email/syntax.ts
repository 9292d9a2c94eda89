import { isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';

/** The written address after form cleaning, and which certain repairs were needed to make it an address. */
export interface CleanedEmail {
  address: string;
  /** Spaces, case, mailto:, angle brackets, display name, trailing punctuation, extra addresses. */
  formChanged: boolean;
  /** Commas for dots or doubled dots in the domain: the written text was not an address at all. */
  domainRepaired: boolean;
  /** A control, format, private-use or unassigned character anywhere in the field (edges too): never cleaned away. */
  unsafe: boolean;
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
 * Characters no address carries and no cleaning should hide: controls (a line break, a tab, NUL: a second line can
 * smuggle a header), format characters (zero-width, BIDI overrides, soft hyphen, BOM), surrogates, private use,
 * unassigned code points and noncharacters, line and paragraph separators, and U+FFFD (a character lost in decoding:
 * what the HTTP layer makes of a lone surrogate).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\ufffd]/u;

/**
 * An address already in its clean form: lower-case ASCII, one @, no space, quote, bracket, comma or doubled dot in
 * the domain, nothing to trim at either end. Every step of `cleanEmail` leaves such a text as it is.
 */
const CLEAN = /^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/** A word of a display name: a capital, then letters, marks and a name's punctuation (D'Amico, Anna-Maria, G.). */
const NAME_WORD = /^\p{Lu}[\p{L}\p{M}'’.-]*$/u;

export function cleanEmail(raw: string): CleanedEmail {
  if (CLEAN.test(raw)) return { address: raw, formChanged: false, domainRepaired: false, unsafe: false };
  const original = raw.normalize('NFC').trim();
  if (HIDDEN.test(raw)) return { address: original, formChanged: false, domainRepaired: false, unsafe: true };
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
    // other spaces ("mario @ x.it", "mario rossi@x.it") were typed inside the address and are removed below. A
    // name's word holds letters and a name's punctuation only: `Fred\ Bloggs@x.it` escapes its space (a quoted
    // pair written without the quotes), so it is one local part, not a name before `bloggs@x.it`
    const words = s.split(/\s+/);
    const at = words.findIndex((w) => /^[^@]+@[^@]+$/.test(w));
    if (at > 0 && words.slice(0, at).every((w) => NAME_WORD.test(w)) && at === words.length - 1) s = words[at]!;
  }
  s = s.replace(/@{2,}/g, '@');
  // a domain literal (`a@[192.0.2.1]`) keeps its closing bracket
  const literal = /@\[[^@]*\]$/.test(s);
  s = trimEdges(s, `'(<[`, literal ? `'")>.,;:` : `'")>].,;:`);
  // a mailto: URI's ?query (subject, body) is not part of the address; a `?` in an address is an ordinary character
  if (/^mailto:/i.test(s)) s = s.slice('mailto:'.length).replace(/\?.*$/, '');
  // spaces go, except inside a quoted local part ("mario rossi"@…)
  s = s.replace(/("[^"]*")|\s+/g, (_m, quoted: string | undefined) => quoted ?? '');
  const at = s.lastIndexOf('@');
  if (at <= 0) return { address: s, formChanged: s !== original, domainRepaired: false, unsafe: false };
  let local = s.slice(0, at);
  let domain = s.slice(at + 1);
  const quoted = local.length > 1 && local.startsWith('"') && local.endsWith('"');
  if (!quoted) local = local.replace(/,/g, '.').toLowerCase();
  // a literal is kept as written (the `IPv6:` tag); a host name is case-insensitive
  if (!literal) domain = domain.toLowerCase();
  const formChanged = `${local}@${domain}` !== original;
  const repaired = literal ? domain : domain.replace(/,/g, '.').replace(/\.{2,}/g, '.').replace(/^\./, '');
  const domainRepaired = repaired !== domain;
  domain = repaired;
  return { address: `${local}@${domain}`, formChanged, domainRepaired, unsafe: false };
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
 * letters, no punycode label to decode.
 */
const ASCII_DOMAIN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]+$/;

/**
 * An ASCII dot-atom local part at an LDH host name: exactly RFC 5322's dot-atom grammar, a strict subset of what
 * the full grammar accepts. Most addresses are this simple.
 */
const DOT_ATOM = /^([a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@([a-z0-9-]+(?:\.[a-z0-9-]+)+)$/i;

/** RFC 5321 Dot-string, with RFC 6531's UTF-8 (any non-ASCII character) in atext. */
const DOT_STRING = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-\u0080-\u{10FFFF}]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-\u0080-\u{10FFFF}]+)*$/u;

/** RFC 5321 Quoted-string: qtextSMTP (printable ASCII but `"` and `\`, and RFC 6531's UTF-8) or a quoted pair of printable ASCII. */
const QUOTED_STRING = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\u{10FFFF}]|\\[\x20-\x7e])*"$/u;

/**
 * Spaces other than U+0020, which only a quoted local part may hold (cleaning removes them everywhere else), and
 * the hidden characters below.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\ufffd\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * RFC 5321 address-literal: an IPv4 address, or `IPv6:` and an IPv6 address as RFC 4291 writes it (`node:net`; no
 * zone). The General-address-literal of another tag names no standardised tag and is refused.
 */
function isAddressLiteral(domain: string): boolean {
  const inside = domain.slice(1, -1);
  if (IPV4.test(inside)) return true;
  const ipv6 = inside.slice('IPv6:'.length);
  return /^IPv6:/i.test(inside) && !ipv6.includes('%') && isIPv6(ipv6);
}

/**
 * A top-level label of letters only (ICANN's rule for ASCII TLDs) or an IDNA A-label. Any other label with `--` in
 * its third and fourth places is reserved by IDNA 2008 (only `xn--` is assigned).
 */
function validLabels(labels: string[]): boolean {
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l) && (l.slice(2, 4) !== '--' || l.startsWith('xn--')))) return false;
  const tld = labels[labels.length - 1]!;
  return /^[a-z]+$/.test(tld) || tld.startsWith('xn--');
}

/**
 * An RFC 5321 Mailbox with RFC 6531 UTF-8: a Dot-string or Quoted-string local part, then a host name (IDNA, LDH
 * labels) or an address literal. No comments and no folding white space: SMTP has neither (RFC 5322's CFWS and
 * obsolete forms are message-header syntax).
 */
export function parseEmail(address: string): ParsedEmail | undefined {
  // the SMTP limits first, in UTF-16 units (never more than octets): they also keep every later step short
  const at = address.lastIndexOf('@');
  if (address.length > 254 || at < 1 || at > 64) return undefined;
  let local: string;
  let domain: string;
  const simple = DOT_ATOM.exec(address);
  if (simple?.[1] && simple[2]) [local, domain] = [simple[1], simple[2]];
  else {
    if (UNSAFE.test(address)) return undefined;
    [local, domain] = [address.slice(0, at), address.slice(at + 1)];
    if (QUOTED_STRING.test(local)) {
      // a quoted local part as SMTP sends it
    } else if (!DOT_STRING.test(local) || !DOT_STRING.test(local.normalize('NFD')) || /^\p{M}/u.test(local)) {
      // an unquoted one also decomposed: `≮` is `<` and a combining mark, a look-alike of a character atext
      // excludes; a combining mark cannot open it (it would join the character before it)
      return undefined;
    }
  }
  if (Buffer.byteLength(local, 'utf8') > 64) return undefined;
  if (domain.startsWith('[')) return domain.endsWith(']') && isAddressLiteral(domain) ? { local, domain, asciiDomain: domain, literal: true } : undefined;
  const asciiDomain = ASCII_DOMAIN.test(domain) && !domain.includes('xn--') ? domain : domainToASCII(domain);
  if (!asciiDomain || asciiDomain.length > 253) return undefined;
  if (Buffer.byteLength(local, 'utf8') + 1 + Math.max(asciiDomain.length, Buffer.byteLength(domain, 'utf8')) > 254) return undefined;
  if (!validLabels(asciiDomain.split('.'))) return undefined;
  return { local, domain, asciiDomain, literal: false };
}
