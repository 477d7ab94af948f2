import { describe, expect, it } from 'vitest';
import type { AdminSessionRecord, AdminUserRecord } from '../repositories/admin-users.ts';
import { store, T0 } from './context.ts';

/** A dashboard user fixture (email already normalised, as callers store it); `over` replaces fields. */
export function adminUser(id: string, over: Partial<AdminUserRecord> = {}): AdminUserRecord {
  return {
    id,
    email: `${id}@example.com`,
    role: 'admin',
    passwordHash: `hash-${id}`,
    totpSealed: null,
    totpPendingSealed: null,
    totpLastStep: null,
    failedSignIns: 0,
    lockedUntil: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

/** A session fixture of `userId`, valid for an hour from `createdAt`; `over` replaces fields. */
export function adminSession(
  id: string,
  userId: string,
  over: Partial<AdminSessionRecord> = {},
): AdminSessionRecord {
  const createdAt = over.createdAt ?? T0;
  return {
    id,
    userId,
    stage: 'full',
    address: '127.0.0.1',
    userAgent: 'test',
    createdAt,
    lastSeenAt: createdAt,
    expiresAt: createdAt + 3_600_000,
    ...over,
  };
}

const LOCK = { failures: 5, lockMs: 60_000 };
const fail = (now = T0) => store.recordSignInFailure({ id: 'usr_a', now, ...LOCK });
const sessionIds = async () => (await store.listAdminSessionsOfUser('usr_a')).map((s) => s.id).sort();

/** Finishes a second-factor sign-in of usr_a from half session `previous` to full session `next`. */
const secondFactor = (step: number, previous: string, next: string, now = T0) =>
  store.completeSecondFactor({
    userId: 'usr_a',
    step,
    previousSessionId: previous,
    session: adminSession(next, 'usr_a', { createdAt: now }),
    now,
  });

/** The Store contract on signing in to the dashboard: failures and locks, the second factor, passwords (../store/dashboard-accounts.ts). */
export function dashboardSignInContract(): void {
  describe('signing in', () => {
    it('counts each wrong password and locks the account at every multiple of the limit', async () => {
      await store.insertAdminUser(adminUser('usr_a'));
      for (let n = 1; n <= 4; n++)
        expect(await fail(T0 + n)).toEqual({ failedSignIns: n, lockedUntil: null });
      expect(await fail(T0 + 5)).toEqual({ failedSignIns: 5, lockedUntil: T0 + 5 + LOCK.lockMs });
      expect(await fail(T0 + 6)).toEqual({ failedSignIns: 6, lockedUntil: T0 + 5 + LOCK.lockMs });
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        failedSignIns: 6,
        lockedUntil: T0 + 5 + LOCK.lockMs,
        updatedAt: T0 + 6,
      });
      expect(await store.recordSignInFailure({ id: 'usr_none', now: T0, ...LOCK })).toEqual({
        failedSignIns: 0,
        lockedUntil: null,
      });
    });

    it('counts every one of 20 concurrent wrong passwords, so a burst cannot get past the lock', async () => {
      await store.insertAdminUser(adminUser('usr_a'));
      const results = await Promise.all(Array.from({ length: 20 }, () => fail()));
      expect(results.map((r) => r.failedSignIns).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      for (const r of results)
        expect(r.lockedUntil).toBe(r.failedSignIns >= LOCK.failures ? T0 + LOCK.lockMs : null);
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        failedSignIns: 20,
        lockedUntil: T0 + LOCK.lockMs,
      });
    });

    it('takes a second-factor step once and only later ones after it, replacing the half session', async () => {
      await store.insertAdminUser(adminUser('usr_a', { totpSealed: 'key', failedSignIns: 2 }));
      await store.startAdminSession({
        session: adminSession('half1', 'usr_a', { stage: 'password' }),
        now: T0,
        clearFailures: false,
      });
      expect(await secondFactor(100, 'half1', 'full1')).toBe(true);
      expect(await sessionIds()).toEqual(['full1']);
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        totpLastStep: 100,
        failedSignIns: 0,
        lockedUntil: null,
      });
      await store.startAdminSession({
        session: adminSession('half2', 'usr_a', { stage: 'password' }),
        now: T0,
        clearFailures: false,
      });
      expect(await secondFactor(100, 'half2', 'full2')).toBe(false);
      expect(await secondFactor(99, 'half2', 'full2')).toBe(false);
      expect(await sessionIds()).toEqual(['full1', 'half2']);
      expect(await secondFactor(101, 'half2', 'full2')).toBe(true);
      expect(await sessionIds()).toEqual(['full1', 'full2']);
    });

    it('lets one of 10 tabs sending the same code at once in', async () => {
      await store.insertAdminUser(adminUser('usr_a', { totpSealed: 'key', totpLastStep: 99 }));
      await store.startAdminSession({
        session: adminSession('half', 'usr_a', { stage: 'password' }),
        now: T0,
        clearFailures: false,
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => secondFactor(100, 'half', `full${i}`)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = `full${results.indexOf(true)}`;
      expect(await sessionIds()).toEqual([winner]);
    });

    it('replaces a password, ending every session and the lock', async () => {
      await store.insertAdminUser(adminUser('usr_a', { failedSignIns: 5, lockedUntil: T0 + 60_000 }));
      await store.startAdminSession({ session: adminSession('s1', 'usr_a'), now: T0, clearFailures: false });
      await store.startAdminSession({ session: adminSession('s2', 'usr_a'), now: T0, clearFailures: false });
      expect(await store.replaceAdminPassword({ id: 'usr_a', passwordHash: 'new-hash', now: T0 + 1 })).toBe(
        true,
      );
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        passwordHash: 'new-hash',
        failedSignIns: 0,
        lockedUntil: null,
        updatedAt: T0 + 1,
      });
      expect(await sessionIds()).toEqual([]);
      expect(await store.replaceAdminPassword({ id: 'usr_none', passwordHash: 'x', now: T0 })).toBe(false);
    });

    it('turns the second factor on with the pending key only, once, ending the other sessions, and off again', async () => {
      await store.insertAdminUser(adminUser('usr_a'));
      for (const id of ['keep', 'other'])
        await store.startAdminSession({ session: adminSession(id, 'usr_a'), now: T0, clearFailures: false });
      await store.setPendingTotp({ id: 'usr_a', sealed: 'pending-1', now: T0 + 1 });
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        totpPendingSealed: 'pending-1',
        updatedAt: T0 + 1,
      });
      const enable = (pendingSealed: string) =>
        store.enableTotp({ id: 'usr_a', pendingSealed, step: 50, keepSessionId: 'keep', now: T0 + 2 });
      expect(await enable('pending-0')).toBe(false);
      expect(await sessionIds()).toEqual(['keep', 'other']);
      expect((await Promise.all([enable('pending-1'), enable('pending-1')])).filter(Boolean)).toHaveLength(1);
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        totpSealed: 'pending-1',
        totpPendingSealed: null,
        totpLastStep: 50,
      });
      expect(await sessionIds()).toEqual(['keep']);
      expect(await secondFactor(50, 'keep', 'again')).toBe(false); // the confirming code's step is used
      expect(await store.disableTotp({ id: 'usr_a', now: T0 + 3 })).toBe(true);
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        totpSealed: null,
        totpPendingSealed: null,
        totpLastStep: null,
        updatedAt: T0 + 3,
      });
      expect(await store.disableTotp({ id: 'usr_none', now: T0 })).toBe(false);
      await store.setPendingTotp({ id: 'usr_a', sealed: 'pending-2', now: T0 + 4 });
      await store.setPendingTotp({ id: 'usr_a', sealed: null, now: T0 + 5 });
      expect((await store.findAdminUserById('usr_a'))?.totpPendingSealed).toBeNull();
    });
  });
}
