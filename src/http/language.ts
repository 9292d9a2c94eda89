/** The 13 languages of labels, reasons and messages. */
export const LANGUAGES = ['it', 'en', 'de', 'fr', 'es', 'nl', 'pt', 'sv', 'no', 'fi', 'da', 'is', 'el'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A text in every supported language. */
export type Texts = Record<Language, string>;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** `nb`/`nn` are Norwegian too; `en-GB` is English. */
export function languageFromTag(tag: string): Language | undefined {
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'nb' || base === 'nn') return 'no';
  return isLanguage(base) ? base : undefined;
}

/** Picks the first supported language of an Accept-Language header, by quality. */
export function languageFromAcceptHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranked) {
    const lang = languageFromTag(r.tag);
    if (lang) return lang;
  }
  return undefined;
}

/** A text in the request language, `{name}` placeholders filled from `values` (absent values leave nothing). */
export function say(texts: Texts, language: Language, values: Record<string, string | number | undefined> = {}): string {
  return texts[language].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
}
