/** The autocomplete endpoint, English and Italian: what a suggest-only token may call (src/account/tokens.ts). */
export const SUGGEST_PATHS = ['/api/v1/suggest', '/api/v1/suggerisci'] as const;
