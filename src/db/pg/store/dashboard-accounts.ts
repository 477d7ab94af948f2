import type { DashboardAccountStore } from '../../store/dashboard-accounts.ts';
import type { PgDb } from '../client.ts';
import * as adminSessions from '../repositories/admin-sessions.ts';
import * as adminUsers from '../repositories/admin-users.ts';

/** DashboardAccountStore on PostgreSQL (the contract: src/db/store/dashboard-accounts.ts). */
export function pgDashboardAccountStore(db: PgDb): DashboardAccountStore {
  return {
    // repositories/admin-sessions.ts
    findAdminSession: (...args) => adminSessions.findAdminSession(db, ...args),
    touchAdminSession: (...args) => adminSessions.touchAdminSession(db, ...args),
    deleteAdminSession: (...args) => adminSessions.deleteAdminSession(db, ...args),
    deleteAdminSessionsOfUser: (...args) => adminSessions.deleteAdminSessionsOfUser(db, ...args),
    listAdminSessionsOfUser: (...args) => adminSessions.listAdminSessionsOfUser(db, ...args),
    // repositories/admin-users.ts
    insertAdminUser: (...args) => adminUsers.insertAdminUser(db, ...args),
    findAdminUserByEmail: (...args) => adminUsers.findAdminUserByEmail(db, ...args),
    findAdminUserById: (...args) => adminUsers.findAdminUserById(db, ...args),
    listAdminUsers: () => adminUsers.listAdminUsers(db),
    recordSignInFailure: (...args) => adminUsers.recordSignInFailure(db, ...args),
    startAdminSession: (...args) => adminUsers.startAdminSession(db, ...args),
    completeSecondFactor: (...args) => adminUsers.completeSecondFactor(db, ...args),
    replaceAdminPassword: (...args) => adminUsers.replaceAdminPassword(db, ...args),
    setPendingTotp: (...args) => adminUsers.setPendingTotp(db, ...args),
    enableTotp: (...args) => adminUsers.enableTotp(db, ...args),
    disableTotp: (...args) => adminUsers.disableTotp(db, ...args),
    deleteAdminUser: (...args) => adminUsers.deleteAdminUser(db, ...args),
  };
}
