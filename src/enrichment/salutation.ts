import type { Language } from '../http/language.js';

interface Forms {
  /** Formal, by gender, with the surname. */
  m: (surname: string) => string;
  f: (surname: string) => string;
  /** Formal when the gender is unknown: the full name. */
  neutral: (fullName: string) => string;
  /** Informal, with the first name. */
  im: (first: string) => string;
  if: (first: string) => string;
  in: (first: string) => string;
  family: (surname: string) => string;
  familyInformal: (surname: string) => string;
  organisation: (name: string) => string;
}

/** Courtesy forms per language. Italian professional titles (Dott., Avv.) are used in Italian only. */
const FORMS: Record<Language, Forms> = {
  it: {
    m: (s) => `Gentile Sig. ${s}`, f: (s) => `Gentile Sig.ra ${s}`, neutral: (n) => `Gentile ${n}`,
    im: (n) => `Caro ${n}`, if: (n) => `Cara ${n}`, in: (n) => `Ciao ${n}`,
    family: (s) => `Gentile Famiglia ${s}`, familyInformal: (s) => `Cara famiglia ${s}`, organisation: (o) => `Spett.le ${o}`,
  },
  en: {
    m: (s) => `Dear Mr ${s}`, f: (s) => `Dear Ms ${s}`, neutral: (n) => `Dear ${n}`,
    im: (n) => `Dear ${n}`, if: (n) => `Dear ${n}`, in: (n) => `Dear ${n}`,
    family: (s) => `Dear ${s} family`, familyInformal: (s) => `Dear ${s} family`, organisation: (o) => `Dear ${o}`,
  },
  de: {
    m: (s) => `Sehr geehrter Herr ${s}`, f: (s) => `Sehr geehrte Frau ${s}`, neutral: (n) => `Guten Tag ${n}`,
    im: (n) => `Lieber ${n}`, if: (n) => `Liebe ${n}`, in: (n) => `Hallo ${n}`,
    family: (s) => `Sehr geehrte Familie ${s}`, familyInformal: (s) => `Liebe Familie ${s}`, organisation: () => 'Sehr geehrte Damen und Herren',
  },
  fr: {
    m: (s) => `Monsieur ${s}`, f: (s) => `Madame ${s}`, neutral: (n) => `Bonjour ${n}`,
    im: (n) => `Cher ${n}`, if: (n) => `Chère ${n}`, in: (n) => `Bonjour ${n}`,
    family: (s) => `Chère famille ${s}`, familyInformal: (s) => `Chère famille ${s}`, organisation: () => 'Madame, Monsieur',
  },
  es: {
    m: (s) => `Estimado Sr. ${s}`, f: (s) => `Estimada Sra. ${s}`, neutral: (n) => `Estimado/a ${n}`,
    im: (n) => `Querido ${n}`, if: (n) => `Querida ${n}`, in: (n) => `Hola ${n}`,
    family: (s) => `Estimada familia ${s}`, familyInformal: (s) => `Querida familia ${s}`, organisation: () => 'Estimados señores',
  },
  nl: {
    m: (s) => `Geachte heer ${s}`, f: (s) => `Geachte mevrouw ${s}`, neutral: (n) => `Geachte ${n}`,
    im: (n) => `Beste ${n}`, if: (n) => `Beste ${n}`, in: (n) => `Beste ${n}`,
    family: (s) => `Geachte familie ${s}`, familyInformal: (s) => `Beste familie ${s}`, organisation: () => 'Geachte heer, mevrouw',
  },
  pt: {
    m: (s) => `Exmo. Sr. ${s}`, f: (s) => `Exma. Sra. ${s}`, neutral: (n) => `Caro(a) ${n}`,
    im: (n) => `Caro ${n}`, if: (n) => `Cara ${n}`, in: (n) => `Olá ${n}`,
    family: (s) => `Cara família ${s}`, familyInformal: (s) => `Cara família ${s}`, organisation: () => 'Exmos. Senhores',
  },
  sv: {
    m: (s) => `Bästa herr ${s}`, f: (s) => `Bästa fru ${s}`, neutral: (n) => `Bästa ${n}`,
    im: (n) => `Hej ${n}`, if: (n) => `Hej ${n}`, in: (n) => `Hej ${n}`,
    family: (s) => `Bästa familjen ${s}`, familyInformal: (s) => `Hej familjen ${s}`, organisation: (o) => `Till ${o}`,
  },
  no: {
    m: (s) => `Kjære herr ${s}`, f: (s) => `Kjære fru ${s}`, neutral: (n) => `Kjære ${n}`,
    im: (n) => `Hei ${n}`, if: (n) => `Hei ${n}`, in: (n) => `Hei ${n}`,
    family: (s) => `Kjære familien ${s}`, familyInformal: (s) => `Hei familien ${s}`, organisation: (o) => `Til ${o}`,
  },
  fi: {
    m: (s) => `Arvoisa herra ${s}`, f: (s) => `Arvoisa rouva ${s}`, neutral: (n) => `Hyvä ${n}`,
    im: (n) => `Hei ${n}`, if: (n) => `Hei ${n}`, in: (n) => `Hei ${n}`,
    family: (s) => `Hyvä perhe ${s}`, familyInformal: (s) => `Hei perhe ${s}`, organisation: () => 'Hyvä vastaanottaja',
  },
  da: {
    m: (s) => `Kære hr. ${s}`, f: (s) => `Kære fru ${s}`, neutral: (n) => `Kære ${n}`,
    im: (n) => `Hej ${n}`, if: (n) => `Hej ${n}`, in: (n) => `Hej ${n}`,
    family: (s) => `Kære familien ${s}`, familyInformal: (s) => `Hej familien ${s}`, organisation: (o) => `Til ${o}`,
  },
  is: {
    m: (s) => `Kæri herra ${s}`, f: (s) => `Kæra frú ${s}`, neutral: (n) => `Góðan dag ${n}`,
    im: (n) => `Kæri ${n}`, if: (n) => `Kæra ${n}`, in: (n) => `Halló ${n}`,
    family: (s) => `Kæra fjölskylda ${s}`, familyInformal: (s) => `Kæra fjölskylda ${s}`, organisation: (o) => `Til ${o}`,
  },
  el: {
    m: (s) => `Αξιότιμε κύριε ${s}`, f: (s) => `Αξιότιμη κυρία ${s}`, neutral: (n) => `Αγαπητέ/ή ${n}`,
    im: (n) => `Αγαπητέ ${n}`, if: (n) => `Αγαπητή ${n}`, in: (n) => `Γεια σου ${n}`,
    family: (s) => `Αγαπητή οικογένεια ${s}`, familyInformal: (s) => `Αγαπητή οικογένεια ${s}`, organisation: () => 'Αξιότιμοι κύριοι',
  },
};

export interface SalutationInput {
  language: Language;
  gender?: 'M' | 'F' | 'X' | 'G';
  firstName?: string;
  lastName?: string;
  /** Italian formal opening of the title (Egregio Dott., Gentile Avv.), from the titles dictionary. */
  italianTitleOpening?: string;
  organisationName?: string;
}

export function salutations(s: SalutationInput): { formal?: string; informal?: string } {
  const forms = FORMS[s.language];
  const first = s.firstName ? displayName(s.firstName) : '';
  const last = s.lastName ? displayName(s.lastName) : '';
  if (s.gender === 'X' || s.organisationName) {
    const name = (s.organisationName ?? [last, first].filter(Boolean).join(' ')).trim();
    return name ? { formal: forms.organisation(name) } : {};
  }
  if (s.gender === 'G') return last ? { formal: forms.family(last), informal: forms.familyInformal(last) } : {};
  const full = [first, last].filter(Boolean).join(' ');
  let formal: string | undefined;
  if (last && (s.gender === 'M' || s.gender === 'F')) {
    formal = s.language === 'it' && s.italianTitleOpening ? `${s.italianTitleOpening} ${last}` : s.gender === 'M' ? forms.m(last) : forms.f(last);
  } else if (full) formal = forms.neutral(full);
  let informal: string | undefined;
  if (first) informal = s.gender === 'M' ? forms.im(first) : s.gender === 'F' ? forms.if(first) : forms.in(first);
  return { ...(formal ? { formal } : {}), ...(informal ? { informal } : {}) };
}

/** ROSSI → Rossi, D'ANGELO → D'Angelo, DE LUCA → De Luca; names already in mixed case are kept. */
export function displayName(name: string): string {
  const t = name.trim().replace(/\s+/g, ' ');
  if (t !== t.toUpperCase() && t !== t.toLowerCase()) return t;
  return t
    .toLowerCase()
    .replace(/(^|[\s'’\-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase())
    .replace(/ In /g, ' in ');
}
