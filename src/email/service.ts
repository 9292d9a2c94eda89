import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

import type { Capability, ItemResult, ProcessContext } from '../http/capability.js';
import { outcomeTable } from '../http/outcomes.js';
import { contactData, type ContactData } from '../import/contact-store.js';
import { roleMailboxesSync } from '../native.js';
import { mapConcurrent } from './concurrency.js';
import { mailDomain } from './dns.js';
import { EMAIL_OUTCOMES } from './outcomes.js';
import { emailItem, type EmailItem } from './schema.js';
import { cleanEmail, parseEmail, type ParsedEmail } from './syntax.js';
import { INTERNATIONAL_PROVIDERS, likelyDomain } from './typos.js';

const DISPOSABLE = disposableEmailBlocklistSet();
/** DNS lookups of one batch in flight at once. */
const DNS_CONCURRENCY = 32;

interface Dictionaries {
  providers: Set<string>;
}

const dictionaries = new WeakMap<ContactData, Dictionaries>();

function dictionariesOf(data: ContactData): Dictionaries {
  let d = dictionaries.get(data);
  if (!d) {
    d = {
      providers: new Set([...INTERNATIONAL_PROVIDERS, ...data.freemailDomains]),
    };
    dictionaries.set(data, d);
  }
  return d;
}

/** The domain or any parent of it is on the disposable list. */
function isDisposable(asciiDomain: string): boolean {
  // every suffix that starts at a label and holds more than the top-level label
  for (let from = 0, dot = asciiDomain.indexOf('.'); dot >= 0; from = dot + 1, dot = asciiDomain.indexOf('.', from)) {
    if (DISPOSABLE.has(asciiDomain.slice(from))) return true;
  }
  return false;
}

/**
 * A mailbox of an office (`info`, `segreteria.roma`): the core decides, with the list and rule dedupe
 * uses. On the calling thread: a set lookup costs less than a hop to the thread pool.
 */
function isRoleBased(local: string, data: ContactData): boolean {
  return roleMailboxesSync(data.dataDir, [local])[0] === true;
}

function withDomain(local: string, domain: string): string {
  return `${local}@${domain}`;
}

export async function verifyEmail(item: EmailItem, data: ContactData, dnsServer?: string): Promise<ItemResult> {
  const raw = item.email ?? '';
  if (!raw.trim()) return { ok: false, email: '', domain_checked: false, domain_exists: null, outcome: ['EMAIL_EMPTY'] };
  const dict = dictionariesOf(data);
  const useDns = item.dns !== false;
  const cleaned = cleanEmail(raw);
  const parsed = cleaned.unsafe ? undefined : parseEmail(cleaned.address);
  if (!parsed) {
    return { ok: false, email: cleaned.address, domain_checked: false, domain_exists: null, outcome: ['EMAIL_INVALID'] };
  }

  const changes: string[] = [];
  if (cleaned.formChanged) changes.push('EMAIL_FORM');
  if (cleaned.domainRepaired) changes.push('EMAIL_DOMAIN');
  const conditions: string[] = [];
  let email = cleaned.address;
  let checked: ParsedEmail = parsed;
  let suggestion: string | undefined;

  let mail = useDns && !parsed.literal ? await mailDomain(parsed.asciiDomain, dnsServer) : undefined;
  const typo = parsed.literal ? undefined : likelyDomain(parsed.asciiDomain, dict.providers);
  if (typo) {
    const proposal = parseEmail(withDomain(parsed.local, typo.domain));
    if (proposal) {
      if (typo.provider && mail?.checked && mail.receivesMail === false) {
        // one edit from a well-known provider and the written domain takes no mail: a certain correction
        email = withDomain(parsed.local, typo.domain);
        if (!changes.includes('EMAIL_DOMAIN')) changes.push('EMAIL_DOMAIN');
      } else if (!(mail?.checked && mail.receivesMail && (!typo.provider || typo.sameName))) {
        suggestion = withDomain(parsed.local, typo.domain);
        conditions.push('EMAIL_TYPO');
      }
      if (email !== cleaned.address || suggestion) {
        checked = proposal;
        mail = useDns ? await mailDomain(proposal.asciiDomain, dnsServer) : undefined;
      }
    }
  }

  if (mail?.checked && !mail.receivesMail) conditions.push('EMAIL_DOMAIN_NOT_FOUND');
  const disposable = !checked.literal && isDisposable(checked.asciiDomain);
  if (disposable) conditions.push('EMAIL_DISPOSABLE');
  if (isRoleBased(checked.local, data)) conditions.push('EMAIL_ROLE_BASED');

  const outcome = changes.length ? [...conditions, 'MODIFIED', ...changes] : conditions;
  const result: ItemResult = {
    ok: !conditions.includes('EMAIL_DOMAIN_NOT_FOUND'),
    email,
    domain_checked: mail?.checked ?? false,
    domain_exists: mail?.checked ? mail.exists : null,
    disposable,
    outcome,
  };
  if (changes.includes('EMAIL_DOMAIN')) result.corrected_from = raw.trim();
  if (suggestion) result.suggestion = suggestion;
  return result;
}

const OUTCOMES = outcomeTable(EMAIL_OUTCOMES);

export const capability: Capability<EmailItem> = {
  name: 'email',
  paths: ['/api/v1/email'],
  outcomes: OUTCOMES,
  counter: 'light',
  batchCap: 500,
  asyncAllowed: true,
  item: emailItem,
  batchOptions: ['dns'],
  freshResults: true,
  // an empty field is answered EMAIL_EMPTY and charged nothing, like an empty phone or website
  units: (item) => ((item.email ?? '').trim() === '' ? 0 : 1),
  async run(items: EmailItem[], ctx: ProcessContext): Promise<ItemResult[]> {
    const data = contactData(ctx.dataDir);
    const one = async (item: EmailItem): Promise<ItemResult> => {
      try {
        return await verifyEmail(item, data, ctx.dnsServer);
      } catch {
        return { ok: false, email: item.email ?? '', domain_checked: false, domain_exists: null, outcome: ['EMAIL_INVALID'] };
      }
    };
    // a single call has nothing to run side by side
    return items.length === 1 ? [await one(items[0]!)] : mapConcurrent(items, DNS_CONCURRENCY, one);
  },
  csvColumns: ['id', 'email', 'corrected_from', 'suggestion', 'domain_exists', 'domain_checked', 'disposable', 'outcome', 'outcome_label', 'reason'],
};
