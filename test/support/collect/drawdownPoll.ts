import type { TrackedAccount } from '../../../functions/domain/account';
import { DEFAULT_COLLECT_SETTINGS } from '../../../functions/services/collect/collectSettings';
import { evaluateDrawdown, type PendingAlerts } from '../../../functions/services/collect/evaluateDrawdown';
import type { Repositories } from '../../../functions/store/repositories';

/**
 * The drawdown step of a poll on its own, as `collectAccount` runs it: the account's alert states
 * read first, then the evaluation (default collect settings), not committed.
 */
export async function drawdownPoll(
  repos: Pick<Repositories, 'curves' | 'alerts' | 'history'>,
  account: TrackedAccount,
  now: number,
  writtenFromMs: number | null = null,
): Promise<PendingAlerts> {
  return evaluateDrawdown(repos, account, now, DEFAULT_COLLECT_SETTINGS, await repos.alerts.listForAccount(account.address), writtenFromMs);
}
