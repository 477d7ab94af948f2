import type { AdminSession } from '../services/admin-sessions.ts';
import type { AdminStrings } from './i18n/en.ts';

/** The dashboard's languages. */
export type AdminLanguage = 'en' | 'zh';

/** What every page is drawn with: strings, where it lives, who is looking, and the page's nonce. */
export interface View {
  t: AdminStrings;
  lang: AdminLanguage;
  /** The dashboard's path prefix (e.g. `/admin`), for every link and form. */
  base: string;
  /** The request's path inside the dashboard (`/orders`), to mark the current section. */
  path: string;
  /** The query string of the request (for the language links), without `lang`. */
  query: string;
  nonce: string;
  session: AdminSession | null;
  /** The CSRF token every form of this page carries; null before sign-in. */
  csrf: string | null;
  network: 'mainnet' | 'testnet';
  /** Epoch ms of the request, for "refreshed at" lines. */
  now: number;
}

/** Fills `{name}` slots of a string; unknown slots stay visible. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) =>
    name in values ? String(values[name]) : slot,
  );
}

/** A time as people read it here: `2026-11-25 12:00:03 UTC` (the dashboard shows UTC only). */
export function utc(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A long id or hash shortened in the middle, for tables (the full value is in the title and the link). */
export function short(text: string | null | undefined, keep = 8): string {
  if (!text) return '—';
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
