import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { parse } from 'csv-parse/sync';

import {
  CONTACT_FILES,
  type LegalFormRow,
  type NameGender,
  type ProfessionRow,
  type SpecialNumberRow,
  type TitleRow,
} from './contact-store.js';
import { native } from '../native.js';

type Row = Record<string, string>;

async function csv(file: string): Promise<Row[]> {
  const text = await readFile(file, 'utf8');
  return parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true, relax_quotes: true }) as Row[];
}

function field(row: Row, name: string): string {
  return row[name] ?? '';
}

/** Admin-register counts are the stronger signal (SOURCES.md); births weights fill names with few records. */
function nameGenders(admins: Row[], births: Row[]): Record<string, NameGender> {
  const out: Record<string, NameGender> = {};
  const fromBirths = new Map<string, NameGender>();
  for (const r of births) {
    if (field(r, 'gender_signal') !== '1') continue;
    const m = Number(field(r, 'male_weight'));
    const f = Number(field(r, 'female_weight'));
    const key = native.foldText(field(r, 'name'));
    if (!key || !(m + f > 0)) continue;
    fromBirths.set(key, { male: m / (m + f), weight: m + f });
  }
  const fromAdmins = new Map<string, NameGender>();
  for (const r of admins) {
    const key = native.foldText(field(r, 'nome'));
    const m = Number(field(r, 'male'));
    const f = Number(field(r, 'female'));
    if (!key || !(m + f > 0)) continue;
    const known = fromAdmins.get(key);
    const mm = m + (known ? known.male * known.weight : 0);
    const tot = m + f + (known?.weight ?? 0);
    fromAdmins.set(key, { male: mm / tot, weight: tot });
  }
  for (const [key, g] of fromBirths) out[key] = g;
  for (const [key, g] of fromAdmins) {
    if (g.weight >= 5 || !out[key]) out[key] = g;
  }
  for (const key of Object.keys(out)) {
    const g = out[key]!;
    out[key] = { male: Math.round(g.male * 1000) / 1000, weight: Math.round(g.weight) };
  }
  return out;
}

function lengths(spec: string): number[] {
  const [a, b] = spec.split('-').map(Number);
  if (a === undefined || !Number.isFinite(a)) return [];
  const hi = b !== undefined && Number.isFinite(b) ? b : a;
  const out: number[] = [];
  for (let n = a; n <= hi; n++) out.push(n);
  return out;
}

const splitList = (s: string, sep: RegExp): string[] => s.split(sep).map((x) => x.trim()).filter(Boolean);

/**
 * Reads ../shared/data/contact in its published formats and writes compact JSON under `<dataDir>/contact/`,
 * read back once per process by `contactData(dataDir)`.
 */
export async function importContactData(
  sourceDir: string,
  dataDir: string,
): Promise<{ datasets: { name: string; file: string; rows: number }[] }> {
  const src = (...p: string[]) => path.join(sourceDir, 'contact', ...p);
  const outDir = path.join(dataDir, 'contact');
  await mkdir(outDir, { recursive: true });
  const datasets: { name: string; file: string; rows: number }[] = [];
  const write = async (name: keyof typeof CONTACT_FILES, value: unknown, rows: number) => {
    const file = path.join(outDir, CONTACT_FILES[name]);
    await writeFile(file, JSON.stringify(value));
    datasets.push({ name, file, rows });
  };

  const names = nameGenders(
    await csv(src('names', 'it_firstnames_gender_amministratori.csv')),
    await csv(src('names', 'it_firstnames_gender_births_italiatools.csv')),
  );
  await write('names', names, Object.keys(names).length);

  const hypocoristics: Record<string, 'M' | 'F'> = {};
  for (const r of await csv(src('names', 'it_hypocoristics.csv'))) {
    const g = field(r, 'genere');
    if ((g === 'M' || g === 'F') && field(r, 'ambiguo') !== '1') hypocoristics[native.foldText(field(r, 'forma_breve'))] = g;
  }
  await write('hypocoristics', hypocoristics, Object.keys(hypocoristics).length);

  const titles: TitleRow[] = (await csv(src('names', 'it_titles.csv'))).map((r) => {
    const written = [
      ...splitList(field(r, 'varianti_abbr'), /\|/),
      field(r, 'abbr_m'),
      field(r, 'abbr_f'),
      ...splitList(field(r, 'titolo_m'), /\//),
      ...splitList(field(r, 'titolo_f'), /\//),
    ];
    return {
      id: field(r, 'id'),
      category: field(r, 'categoria'),
      abbrM: field(r, 'abbr_m'),
      abbrF: field(r, 'abbr_f'),
      nameM: field(r, 'titolo_m'),
      nameF: field(r, 'titolo_f'),
      salutationM: field(r, 'saluto_m'),
      salutationF: field(r, 'saluto_f'),
      forms: [...new Set(written.map((s) => native.foldText(s)).filter(Boolean))],
    };
  });
  await write('titles', titles, titles.length);

  const professions: ProfessionRow[] = (await csv(src('names', 'it_professioni_titoli.csv')))
    .filter((r) => field(r, 'titolo_id'))
    .map((r) => ({
      forms: [
        ...new Set(
          [...splitList(field(r, 'professione'), /\//), ...splitList(field(r, 'professione_f'), /\//)]
            .map((p) => native.foldText(p.replace(/\(.*?\)/g, '')))
            .filter(Boolean),
        ),
      ],
      titleId: field(r, 'titolo_id'),
      abbrM: field(r, 'abbr_m'),
      abbrF: field(r, 'abbr_f'),
    }));
  await write('professions', professions, professions.length);

  const legalForms: LegalFormRow[] = (await csv(src('legal', 'it_legal_form_markers.csv'))).map((r) => ({
    form: field(r, 'forma'),
    description: field(r, 'descrizione'),
    category: field(r, 'categoria'),
    subject: field(r, 'soggetto'),
    position: field(r, 'posizione_tipica'),
    variants: [...new Set(splitList(field(r, 'varianti'), /\|/).map((s) => native.foldText(s)).filter(Boolean))].sort(
      (a, b) => b.length - a.length,
    ),
  }));
  await write('legalForms', legalForms, legalForms.length);

  const roles = (await csv(src('email', 'it_role_localparts.csv'))).map((r) => field(r, 'localpart').toLowerCase());
  await write('roleLocalParts', roles, roles.length);
  const freemail = (await csv(src('email', 'it_freemail_isp_domains.csv'))).map((r) => field(r, 'domain').toLowerCase());
  await write('freemailDomains', freemail, freemail.length);

  const districts: Record<string, string> = {};
  for (const r of await csv(src('phone', 'it_prefissi_distretti.csv'))) {
    const prefix = field(r, 'prefisso');
    if (/^0\d+$/.test(prefix)) districts[prefix] = field(r, 'distretto');
  }
  await write('districts', districts, Object.keys(districts).length);

  const operators: Record<string, string> = {};
  for (const r of await csv(src('phone', 'it_mobile_prefix_operator.csv'))) {
    operators[field(r, 'prefisso_nazionale')] = field(r, 'operatore_assegnatario_originale');
  }
  await write('mobileOperators', operators, Object.keys(operators).length);

  const special: SpecialNumberRow[] = (await csv(src('phone', 'it_numerazioni_speciali.csv'))).map((r) => ({
    prefix: field(r, 'prefisso'),
    lengths: lengths(field(r, 'lunghezza_cifre')),
    category: field(r, 'categoria'),
    description: field(r, 'descrizione'),
  }));
  await write('specialNumbers', special, special.length);

  return { datasets };
}
