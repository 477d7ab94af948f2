import { en, type Strings } from './i18n/en.ts';
import { zh } from './i18n/zh.ts';

export const LANGUAGES = { en, zh } as const;
export type Language = keyof typeof LANGUAGES;

/** Maps a language tag (`zh-CN`, `zh-Hant`, `en-GB`, …) to a page language, or null when none fits. */
function fromTag(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return primary === 'en' || primary === 'zh' ? primary : null;
}

/**
 * The page language: `?lang=` when it names one we have, else the best match of Accept-Language
 * (by q-value, then order), else English. Unknown or malformed input never fails.
 */
export function pickLanguage(lang: string | undefined, acceptLanguage: string | undefined): Language {
  const asked = lang ? fromTag(lang) : null;
  if (asked) return asked;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((e) => Number.isFinite(e.q) && e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const found = fromTag(entry.tag);
    if (found) return found;
  }
  return 'en';
}

/** The strings of a language. */
export function stringsFor(language: Language): Strings {
  return LANGUAGES[language];
}

/** Fills `{name}` slots of a string; unknown slots stay as they are. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) =>
    name in values ? String(values[name]) : slot,
  );
}
