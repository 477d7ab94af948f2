import type { DashboardAccountStore } from '../../store/dashboard-accounts.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** DashboardAccountStore on PostgreSQL (the contract: src/db/store/dashboard-accounts.ts). */
export function pgDashboardAccountStore(_db: PgDb): DashboardAccountStore {
  return {
    findAdminSession: notPorted('findAdminSession'),
    touchAdminSession: notPorted('touchAdminSession'),
    deleteAdminSession: notPorted('deleteAdminSession'),
    deleteAdminSessionsOfUser: notPorted('deleteAdminSessionsOfUser'),
    listAdminSessionsOfUser: notPorted('listAdminSessionsOfUser'),
    insertAdminUser: notPorted('insertAdminUser'),
    findAdminUserByEmail: notPorted('findAdminUserByEmail'),
    findAdminUserById: notPorted('findAdminUserById'),
    listAdminUsers: notPorted('listAdminUsers'),
    recordSignInFailure: notPorted('recordSignInFailure'),
    startAdminSession: notPorted('startAdminSession'),
    completeSecondFactor: notPorted('completeSecondFactor'),
    replaceAdminPassword: notPorted('replaceAdminPassword'),
    setPendingTotp: notPorted('setPendingTotp'),
    enableTotp: notPorted('enableTotp'),
    disableTotp: notPorted('disableTotp'),
    deleteAdminUser: notPorted('deleteAdminUser'),
  };
}
