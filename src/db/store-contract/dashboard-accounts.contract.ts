import { describe, expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { adminSession, adminUser, dashboardSignInContract } from './dashboard-accounts-sign-in.contract.ts';

const sessionIds = async (userId: string) => (await store.listAdminSessionsOfUser(userId)).map((s) => s.id);

/** The Store contract on the dashboard's users and sessions (../store/dashboard-accounts.ts); it runs inside storeContract's describe. */
export function dashboardAccountsContract(): void {
  describe('dashboard accounts', () => {
    it('keeps users by their exact stored email, one per email, oldest first', async () => {
      expect(await store.insertAdminUser(adminUser('usr_b', { createdAt: T0 + 1 }))).toBe(true);
      expect(await store.insertAdminUser(adminUser('usr_a'))).toBe(true);
      expect(await store.insertAdminUser(adminUser('usr_c', { email: 'usr_a@example.com' }))).toBe(false);
      expect(await store.findAdminUserById('usr_c')).toBeNull();
      expect((await store.findAdminUserByEmail('usr_a@example.com'))?.id).toBe('usr_a');
      // Callers normalise (trim, lower-case) before they look up: the store compares exactly.
      expect(await store.findAdminUserByEmail('USR_A@example.com')).toBeNull();
      expect(await store.findAdminUserByEmail('usr_a@example.co')).toBeNull();
      expect(await store.findAdminUserById('usr_b')).toEqual(adminUser('usr_b', { createdAt: T0 + 1 }));
      expect((await store.listAdminUsers()).map((u) => u.id)).toEqual(['usr_a', 'usr_b']);
    });

    it('lets one of 10 concurrent sign-ups with the same email in', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.insertAdminUser(adminUser(`usr_${i}`, { email: 'ops@example.com' })),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.listAdminUsers()).toHaveLength(1);
    });

    it('finds a session with its user, touches it, lists newest first and ends one or all but one', async () => {
      await store.insertAdminUser(adminUser('usr_a', { role: 'viewer', totpSealed: 'sealed-key' }));
      await store.startAdminSession({ session: adminSession('s1', 'usr_a'), now: T0, clearFailures: false });
      await store.startAdminSession({
        session: adminSession('s2', 'usr_a', { createdAt: T0 + 10 }),
        now: T0 + 10,
        clearFailures: false,
      });
      await store.startAdminSession({
        session: adminSession('s3', 'usr_a', { createdAt: T0 + 20 }),
        now: T0 + 20,
        clearFailures: false,
      });
      expect(await store.findAdminSession('s1')).toMatchObject({
        id: 's1',
        userId: 'usr_a',
        email: 'usr_a@example.com',
        role: 'viewer',
        totpOn: true,
      });
      expect(await store.findAdminSession('s_none')).toBeNull();
      await store.touchAdminSession('s1', T0 + 60_000);
      expect((await store.findAdminSession('s1'))?.lastSeenAt).toBe(T0 + 60_000);
      expect(await sessionIds('usr_a')).toEqual(['s3', 's2', 's1']);
      await store.deleteAdminSession('s2');
      expect(await sessionIds('usr_a')).toEqual(['s3', 's1']);
      expect(await store.deleteAdminSessionsOfUser('usr_a', 's1')).toBe(1);
      expect(await sessionIds('usr_a')).toEqual(['s1']);
      expect(await store.deleteAdminSessionsOfUser('usr_a')).toBe(1);
      expect(await store.deleteAdminSessionsOfUser('usr_a')).toBe(0);
    });

    it('drops everyone’s expired sessions at a sign-in, and clears the failures only when asked', async () => {
      await store.insertAdminUser(adminUser('usr_a', { failedSignIns: 3, lockedUntil: T0 - 1 }));
      await store.insertAdminUser(adminUser('usr_b', { email: 'b@example.com' }));
      await store.startAdminSession({ session: adminSession('old', 'usr_b'), now: T0, clearFailures: false });
      const later = T0 + 3_600_001; // `old` has expired
      await store.startAdminSession({
        session: adminSession('half', 'usr_a', { stage: 'password', createdAt: later }),
        now: later,
        clearFailures: false,
      });
      expect(await sessionIds('usr_b')).toEqual([]);
      expect(await store.findAdminUserById('usr_a')).toMatchObject({ failedSignIns: 3, lockedUntil: T0 - 1 });
      await store.startAdminSession({
        session: adminSession('full', 'usr_a', { createdAt: later + 1 }),
        now: later + 1,
        clearFailures: true,
      });
      expect(await store.findAdminUserById('usr_a')).toMatchObject({
        failedSignIns: 0,
        lockedUntil: null,
        updatedAt: later + 1,
      });
      expect(await sessionIds('usr_a')).toEqual(['full', 'half']);
    });

    it('removes a user with every session of theirs, and says when there was none', async () => {
      await store.insertAdminUser(adminUser('usr_a'));
      await store.insertAdminUser(adminUser('usr_b'));
      await store.startAdminSession({ session: adminSession('sa', 'usr_a'), now: T0, clearFailures: false });
      await store.startAdminSession({ session: adminSession('sb', 'usr_b'), now: T0, clearFailures: false });
      expect(await store.deleteAdminUser('usr_a')).toBe(true);
      expect(await store.findAdminUserById('usr_a')).toBeNull();
      expect(await store.findAdminSession('sa')).toBeNull();
      expect(await sessionIds('usr_a')).toEqual([]);
      expect(await sessionIds('usr_b')).toEqual(['sb']);
      expect(await store.deleteAdminUser('usr_a')).toBe(false);
    });

    dashboardSignInContract();
  });
}
