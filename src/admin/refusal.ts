import type { AdminStrings } from './i18n/en.ts';

/** Which refusal message a page shows (keys of the `errors` strings). */
export type RefusalKind = Exclude<
  keyof AdminStrings['errors'],
  'title' | 'back' | 'validation' | 'conflict' | 'unavailable'
>;

/** A request the dashboard refuses on purpose, with the status it answers (always 4xx). */
export class Refusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429,
    readonly kind: RefusalKind,
  ) {
    super(`dashboard refused: ${kind}`);
    this.name = 'Refusal';
  }
}
