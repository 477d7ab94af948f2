/**
 * Why a dashboard sign-in or session was refused. `credentials` covers an unknown email and a wrong
 * password alike (the answer never tells which); `locked` and `too_many` carry how long to wait.
 */
export type AdminAuthReason = 'credentials' | 'code' | 'locked' | 'too_many' | 'session';

/** A refused sign-in step; the dashboard maps the reason to a status and a message. */
export class AdminAuthError extends Error {
  constructor(
    readonly reason: AdminAuthReason,
    readonly retryAfterSeconds?: number,
  ) {
    super(`sign-in refused: ${reason}`);
    this.name = 'AdminAuthError';
  }
}
