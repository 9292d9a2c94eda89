import type { Capability, ItemResult, ProcessContext } from '../http/capability.js';
import { outcomeTable } from '../http/outcomes.js';
import { say, type Language } from '../http/language.js';
import { contactData, type ContactData, type TitleRow } from '../import/contact-store.js';
import { firstNameGender, titleOf, writtenGender, type Gender } from './gender.js';
import { legalFormOf, subjectType } from './legal.js';
import { ENRICHMENT_COMMENTS } from './messages.js';
import { ENRICHMENT_OUTCOMES } from './outcomes.js';
import { displayName, salutations } from './salutation.js';
import { enrichmentItem, enrichmentResult, type EnrichmentItem } from './schema.js';
import { native } from '../native.js';

/** Education that earns the Italian "Dott."/"Dott.ssa": any university degree. */
const DEGREE = /\b(LAUREA|LAUREATO|LAUREATA|LAUREA MAGISTRALE|DOTTORATO|PHD|MASTER|DEGREE|DOTTORE|DOTTORESSA|UNIVERSITA)\b/;

type GenderSource = 'written' | 'title' | 'married_name' | 'first_name' | 'legal_form';

interface Title {
  row: TitleRow;
  /** The abbreviation to print, when known for the gender (Dott./Dott.ssa, Avv.). */
  abbr?: string;
}

function titleRow(data: ContactData, id: string): TitleRow | undefined {
  return data.titles.find((t) => t.id === id);
}

function abbrFor(row: TitleRow, gender: Gender | undefined, abbrM = row.abbrM, abbrF = row.abbrF): string | undefined {
  if (gender === 'F') return abbrF || undefined;
  if (gender === 'M') return abbrM || undefined;
  return abbrM && abbrM === abbrF ? abbrM : undefined;
}

/** Title from the profession (avvocato → Avv., medico → Dott.) or, failing that, a degree (→ Dott.). */
function derivedTitle(data: ContactData, item: EnrichmentItem, gender: Gender | undefined): Title | undefined {
  const profession = native.foldText(item.profession ?? '');
  if (profession) {
    let best: { row: TitleRow; abbrM: string; abbrF: string; length: number } | undefined;
    for (const p of data.professions) {
      for (const form of p.forms) {
        if (!` ${profession} `.includes(` ${form} `) || (best && form.length <= best.length)) continue;
        const row = titleRow(data, p.titleId);
        if (row) best = { row, abbrM: p.abbrM, abbrF: p.abbrF, length: form.length };
      }
    }
    if (best) {
      const abbr = abbrFor(best.row, gender, best.abbrM, best.abbrF);
      return { row: best.row, ...(abbr ? { abbr } : {}) };
    }
  }
  if (DEGREE.test(native.foldText(item.education ?? ''))) {
    const row = titleRow(data, 'dott');
    if (row) {
      const abbr = abbrFor(row, gender);
      return { row, ...(abbr ? { abbr } : {}) };
    }
  }
  return undefined;
}

/** A title written before the first name ("Dott.ssa Anna"): taken off the name, kept as title and gender hint. */
function leadingTitle(data: ContactData, name: string): { title: TitleRow; gender?: 'M' | 'F'; rest: string } | undefined {
  const words = name.trim().split(/\s+/);
  for (let n = Math.min(2, words.length - 1); n >= 1; n--) {
    const t = titleOf(data, words.slice(0, n).join(' '));
    if (t) return { ...t, rest: words.slice(n).join(' ') };
  }
  return undefined;
}

/** "BIANCHI IN ROSSI": the birth surname, then the husband's, as Italian registers write a married woman. */
function marriedForm(lastName: string): { birth_surname: string; married_surname: string } | undefined {
  const m = /^(.+?)\s+in\s+(.+)$/i.exec(lastName.trim());
  if (!m?.[1] || !m[2]) return undefined;
  return { birth_surname: displayName(m[1]), married_surname: displayName(m[2]) };
}

export function enrich(item: EnrichmentItem, data: ContactData, language: Language): ItemResult {
  const comments: string[] = [];
  let firstName = item.first_name?.trim() ?? '';
  const lastName = item.last_name?.trim() ?? '';
  const written = writtenGender(data, item.gender);
  if (item.gender?.trim() && !written.gender && !written.title) comments.push(say(ENRICHMENT_COMMENTS.gender_not_understood, language, { gender: item.gender.trim() }));

  const marker = written.gender === 'G' ? undefined : legalFormOf(data, lastName, firstName);
  if (marker || written.gender === 'X') {
    const name = [lastName, firstName].filter(Boolean).join(' ');
    const s = salutations({ language, gender: 'X', organisationName: name });
    return {
      ok: Boolean(name),
      gender: 'X',
      gender_source: marker ? 'legal_form' : 'written',
      subject_type: marker ? subjectType(marker) : 'organisation',
      ...(marker ? { detail: { legal_form: marker.form.form, description: marker.form.description } } : {}),
      ...(s.formal ? { formal_salutation: s.formal } : {}),
      outcome: ['LEGAL_PERSON'],
      comments,
    };
  }

  let gender: Gender | undefined = written.gender;
  let source: GenderSource | undefined = gender ? 'written' : undefined;
  let writtenTitle: TitleRow | undefined = written.title ?? (item.title ? titleOf(data, item.title)?.title : undefined);
  if (!gender && item.title) {
    const g = titleOf(data, item.title)?.gender;
    if (g) [gender, source] = [g, 'title'];
  }
  const lead = firstName ? leadingTitle(data, firstName) : undefined;
  if (lead) {
    firstName = lead.rest;
    writtenTitle ??= lead.title;
    if (!gender && lead.gender) [gender, source] = [lead.gender, 'title'];
  }
  const married = gender === 'G' ? undefined : marriedForm(lastName);
  if (married) {
    if (!gender) [gender, source] = ['F', 'married_name'];
    else if (gender === 'M') comments.push(say(ENRICHMENT_COMMENTS.married_form_for_man, language));
  }
  // an initial (M., J) is not a name to greet anyone by
  if (firstName && native.foldText(firstName).replace(/ /g, '').length <= 1) {
    comments.push(say(ENRICHMENT_COMMENTS.first_name_initial, language));
    firstName = '';
  }
  const byName = firstName ? firstNameGender(data, firstName) : undefined;
  if (!gender && byName) [gender, source] = [byName, 'first_name'];
  else if (byName && (gender === 'M' || gender === 'F') && byName !== gender) comments.push(say(byName === 'M' ? ENRICHMENT_COMMENTS.first_name_usually_male : ENRICHMENT_COMMENTS.first_name_usually_female, language));

  let title: Title | undefined;
  if (writtenTitle && writtenTitle.category !== 'cortesia') {
    const abbr = abbrFor(writtenTitle, gender);
    title = { row: writtenTitle, ...(abbr ? { abbr } : {}) };
  } else title = derivedTitle(data, item, gender);

  const opening = gender === 'F' ? title?.row.salutationF : gender === 'M' ? title?.row.salutationM : undefined;
  const s = salutations({
    language,
    ...(gender ? { gender } : {}),
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    ...(opening ? { italianTitleOpening: opening } : {}),
  });
  const complete = Boolean(firstName) && Boolean(gender) && Boolean(s.formal);
  const result: ItemResult = {
    ok: Boolean(firstName || lastName),
    gender: gender ?? null,
    ...(source ? { gender_source: source } : {}),
    subject_type: 'natural_person',
    title: title?.abbr ?? null,
    formal_salutation: s.formal ?? null,
    informal_salutation: s.informal ?? null,
    ...(married ? { detail: married } : {}),
    outcome: complete || (gender === 'G' && s.formal) ? ['ENRICHED'] : ['PARTIAL'],
  };
  // always, empty when there is nothing to say (spec, Enrichment: the result carries comments)
  result.comments = comments;
  return result;
}

const OUTCOMES = outcomeTable(ENRICHMENT_OUTCOMES);

export const capability: Capability<EnrichmentItem> = {
  name: 'enrichment',
  paths: ['/api/v1/enrichment', '/api/v1/arricchimento'],
  outcomes: OUTCOMES,
  counter: 'light',
  // the endpoint description says 500, the limits table 2,000: names are cheap and local, the larger cap serves
  // the list-cleaning use without letting a call outgrow the tax-code batch it usually travels with
  batchCap: 2000,
  asyncAllowed: true,
  item: enrichmentItem,
  units: () => 1,
  async run(items: EnrichmentItem[], ctx: ProcessContext): Promise<ItemResult[]> {
    const data = contactData(ctx.dataDir);
    return items.map((item) => {
      try {
        return enrich(item, data, ctx.language);
      } catch {
        return { ok: false, gender: null, subject_type: null, outcome: ['PARTIAL'], comments: [] };
      }
    });
  },
  result: enrichmentResult,
  csvColumns: [
    'id', 'gender', 'gender_source', 'subject_type', 'title', 'formal_salutation', 'informal_salutation', 'detail',
    'comments', 'outcome', 'outcome_label', 'reason',
  ],
};
