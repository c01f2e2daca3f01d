import type { TrackedAccount } from '../../../functions/domain/account';
import type { Address } from '../../../functions/domain/address';
import { nextReportAt } from '../../../functions/domain/reportPlan';
import { RETENTION_MS } from '../delivery/mailHarness';
import { accountRecord } from '../store/accountFixture';
import { hourlyPoints } from './reportFixture';
import type { ReportWorld } from './reportWorld';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Tracks an account in `w` whose report is due at `due` (08:00 Europe/Berlin), created three days
 * before, with hourly curves from two days before `due` to `lastPoint` (equity from 100,000 and PnL
 * from 0, rising by 1 an hour).
 */
export async function trackedWithCurves(
  w: ReportWorld,
  account: { readonly address: Address; readonly emails: string[]; readonly label?: string },
  due: number,
  lastPoint: number,
): Promise<TrackedAccount> {
  const tracked = accountRecord({
    ...account,
    reportAt: '08:00',
    timezone: 'Europe/Berlin',
    nextReportAt: nextReportAt(w.clock.now(), '08:00', 'Europe/Berlin'),
    createdAt: due - 3 * DAY,
  });
  await w.repos.accounts.create(tracked);
  const from = due - 2 * DAY;
  await w.repos.curves.putPoints(
    tracked.address,
    tracked.interval,
    hourlyPoints(
      from,
      lastPoint,
      (t) => 100_000 + (t - from) / HOUR,
      (t) => (t - from) / HOUR,
    ),
    due + RETENTION_MS,
  );
  return tracked;
}
