import { revokeAllSettlement } from '../../domain/revokeAllSettlement';
import type { RevokeAllJob } from '../../messages/revokeAllJob';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { RevokeAllRepository } from '../../store/revokeAllRepository';

/** Each key's outcome in words, cut to this: a batch's 200 keys stay well within one queue message. */
const UNIT_TEXT_CHARS = 500;

/** The ports of {@link announceRevokeAllSettled}. */
export interface AnnounceRevokeAllDeps {
  readonly batches: Pick<RevokeAllRepository, 'get'>;
  /** The notify queue: the result email goes to every recipient of the account (a security notice). */
  readonly notify: MessageQueue<NotifyEvent>;
  readonly now: () => number;
}

/**
 * Queues the revoke-all result email once the job's batch has settled (no delegate queued): each
 * delegate's outcome, once. Every delivery that finds the same settlement names the same event,
 * so a redelivered job or a second worker sends nothing twice (the notify ledger is per event and
 * recipient); a retry from the page that settles again is a new result. Throws when the message
 * could not be queued, so the job is redelivered and tries again.
 */
export async function announceRevokeAllSettled(deps: AnnounceRevokeAllDeps, job: RevokeAllJob): Promise<'announced' | 'pending'> {
  const batch = await deps.batches.get(job.tokenId);
  const settled = batch === null ? null : revokeAllSettlement(job.tokenId, batch.units);
  if (settled === null) return 'pending';
  await sendAll(deps.notify, [
    {
      id: 'result',
      body: {
        kind: 'revoke-all-result',
        eventId: `revoke-all-result#${job.account}#${settled.key}`,
        account: job.account,
        at: deps.now(),
        units: settled.rows.map((r) => ({ address: r.address, outcome: r.outcome, text: r.text.slice(0, UNIT_TEXT_CHARS), nonce: r.nonce, next: r.next })),
      },
    },
  ]);
  return 'announced';
}
