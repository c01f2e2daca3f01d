import type { LastPoll } from '../functions/domain/lastPoll';
import { withoutUrls } from '../functions/shared/withoutUrls';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The last poll in words: `none yet`, `ok` (with `at ...` when the last success is known), or
 * `failed at <ISO>: <reason>` with how many in a row since when.
 */
export function lastPollText(poll: LastPoll, lastSuccessAt: number | null = null): string {
  if (poll.outcome === 'none') return 'none yet';
  if (poll.outcome === 'ok') return lastSuccessAt === null ? 'ok' : `ok at ${iso(lastSuccessAt)}`;
  const run = poll.consecutive > 1 ? ` (${poll.consecutive} in a row since ${iso(poll.since)})` : '';
  return `failed at ${iso(poll.at)}: ${withoutUrls(poll.reason)}${run}`;
}

/** The last poll as `--json` shows it in `accounts list/show`: times as ISO strings, `null` where none applies. */
export function lastPollJson(poll: LastPoll): {
  outcome: LastPoll['outcome'];
  at: string | null;
  reason: string | null;
  since: string | null;
  consecutiveFailures: number;
} {
  if (poll.outcome !== 'failed') return { outcome: poll.outcome, at: null, reason: null, since: null, consecutiveFailures: 0 };
  return { outcome: 'failed', at: iso(poll.at), reason: withoutUrls(poll.reason), since: iso(poll.since), consecutiveFailures: poll.consecutive };
}
