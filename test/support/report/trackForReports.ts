import type { TrackedAccount } from '../../../functions/domain/account';
import { nextReportAt } from '../../../functions/domain/reportPlan';
import { accountRecord } from '../store/accountFixture';
import type { ReportWorld } from './reportWorld';

/** Tracks `address` for `emails` in `w` as `accounts add` does at the world's now: its first report at the next `reportAt` in `timezone`. */
export async function trackForReports(w: ReportWorld, address: `0x${string}`, emails: string[], reportAt: string, timezone: string): Promise<TrackedAccount> {
  const account = accountRecord({
    address,
    emails,
    reportAt,
    timezone,
    nextReportAt: nextReportAt(w.clock.now(), reportAt, timezone),
    createdAt: w.clock.now(),
  });
  await w.repos.accounts.create(account);
  return account;
}
