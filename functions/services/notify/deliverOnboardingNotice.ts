import { channelDeliveryId, routedChannels } from '../../domain/channelRouting';
import type { TrackedAccount } from '../../domain/account';
import { baselineBreach, batchSettled, breachesByAudience, onboardingBatchId, type BatchMember, type OnboardingBreach } from '../../domain/onboardingBreaches';
import { EVENT_PRESENTERS } from '../../notices/eventPresenters';
import { renderNoticeEmail } from '../../notices/renderNoticeEmail';
import type { LevelState } from '../../domain/alertMachine';
import type { OnboardingCheck } from '../../messages/notifyMessage';
import { sendAll } from '../../queue/sendAll';
import { mapConcurrent } from '../../shared/concurrency';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { OnboardingBatchRepository } from '../../store/onboardingBatchRepository';
import type { OnboardingProgressRepository } from '../../store/onboardingProgressRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import { DRAWDOWN_RULE, drawdownStateSchema, levelStateOf } from '../../domain/drawdownState';
import { mailAudience } from '../../notices/audience';
import { noRecipientReason } from '../../domain/mailCategory';
import { recipientLinks } from '../delivery/recipientLinks';
import type { DeliverNotificationDeps } from './deliverNotification';
import { mailEachRecipient, type NotificationOutcome } from './mailEachRecipient';
import { claimSettledBatch, type BatchClaimRepos } from './claimSettledBatch';

/**
 * What the onboarding notice needs besides a notification's ports: the batch's members (by key),
 * its checks' progress, its accounts and their drawdown states.
 */
export interface OnboardingNoticeDeps extends DeliverNotificationDeps {
  readonly repos: DeliverNotificationDeps['repos'] &
    BatchClaimRepos & {
      readonly onboardingBatches: Pick<OnboardingBatchRepository, 'addresses'>;
      readonly onboardingProgress: Pick<OnboardingProgressRepository, 'release'>;
      readonly accounts: Pick<AccountsRepository, 'getMany'>;
      readonly alerts: Pick<AlertStateRepository, 'get'>;
    };
}

/** Drawdown states of the batch read at once by the claimant. */
const MEMBER_READS_IN_FLIGHT = 16;

/**
 * Tells of the accounts of an onboarding batch (created by one `accounts add` or `import` run,
 * so sharing `createdAt`) that were already past a drawdown level when tracking began: the
 * alert machine records those levels silently (no storm, no daily reminder each), and this is
 * the one notice about them.
 *
 * Waits for the whole batch: until every account of it had its first poll, the check is
 * `skipped` (each first poll queues a check, so the last one to end finds the batch settled).
 * The checks find the batch's members by key and share their progress (`claimSettledBatch`):
 * one check claims the settled batch and reads its accounts; the others are `skipped`, so an
 * `N`-account import costs about `N` reads in all, not `N` reads per check. The claimant (and its
 * redeliveries) then sends each recipient of a breached account's drawdown alerts ONE email
 * listing its breached accounts of the batch, worst first, under `onboarding:<createdAt>#<email>`;
 * each channel routed to breached accounts in the drawdown category gets one notice listing those,
 * under `onboarding:<createdAt>#channel:<name>`. A redelivered claimant finds the deliveries
 * already made and sends nothing more.
 */
export async function deliverOnboardingNotice(deps: OnboardingNoticeDeps, check: OnboardingCheck): Promise<NotificationOutcome> {
  const claim = await claimSettledBatch(deps.repos, check);
  if (claim.kind === 'waiting') return { kind: 'skipped', reason: 'the batch is still being polled for the first time' };
  if (claim.kind === 'taken') return { kind: 'skipped', reason: 'another check of the batch announces it' };
  const batch = (await deps.repos.accounts.getMany(await deps.repos.onboardingBatches.addresses(check.batch)))
    .filter((a) => a.createdAt === check.batch)
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  if (batch.length === 0) return { kind: 'skipped', reason: 'no account of the batch is tracked any more' };
  // A batch may hold thousands of accounts: their drawdown states are read a few at a time.
  const members = await mapConcurrent(batch, MEMBER_READS_IN_FLIGHT, (account) => memberOf(deps, account));
  if (!batchSettled(members)) {
    await deps.repos.onboardingProgress.release(check.batch, check.eventId);
    return { kind: 'skipped', reason: 'the batch is still being polled for the first time' };
  }
  const breaches = members.map(baselineBreach).filter((b): b is OnboardingBreach => b !== null);
  if (breaches.length === 0) return { kind: 'skipped', reason: 'no account of the batch was past a drawdown level' };

  const id = onboardingBatchId(check.batch);
  const presenter = EVENT_PRESENTERS.onboarding;
  const accounts = new Map(batch.map((a) => [a.address.toLowerCase(), a]));
  const accountOf = (address: string) => accounts.get(address.toLowerCase());
  if (deps.channelFanOut) {
    const channels = await deps.channelFanOut.channels.list();
    const byChannel = breachesByAudience(breaches, (address) => routedChannels(channels, address, 'drawdown').map((c) => c.name));
    await sendAll(
      deps.channelFanOut.channelQueue,
      [...byChannel].map(([channel, listed]) => {
        const notice = presenter.present({ id, breaches: listed, trackedSince: check.batch });
        return { id: channelDeliveryId(notice.id, channel), body: { channel, notice, attempt: 0 } };
      }),
    );
    if (byChannel.size > 0) deps.counters.count('ChannelJobsQueued', byChannel.size);
  }

  // Each recipient once, in the spelling of its first account; keyed case-insensitively.
  const spelling = new Map<string, string>();
  const reachable = new Map<string, string[]>();
  for (const breach of breaches) {
    const account = accountOf(breach.address);
    const audience = account ? await mailAudience(deps.repos, account.emails, 'drawdown') : null;
    const emails = audience?.kind === 'recipients' ? audience.recipients : [];
    for (const email of emails) if (!spelling.has(email.toLowerCase())) spelling.set(email.toLowerCase(), email);
    reachable.set(
      breach.address.toLowerCase(),
      emails.map((e) => e.toLowerCase()),
    );
  }
  const byRecipient = breachesByAudience(breaches, (address) => reachable.get(address.toLowerCase()) ?? []);
  if (byRecipient.size === 0) return { kind: 'skipped', reason: noRecipientReason('drawdown') };

  const now = deps.now();
  // Each recipient's copy is recorded under its worst account, and linked from it.
  const copies = [...byRecipient].flatMap(([key, listed]) => {
    const worst = listed[0] && accountOf(listed[0].address);
    return worst ? [{ recipient: spelling.get(key) ?? key, account: worst.address, worst, listed }] : [];
  });
  return mailEachRecipient(deps, { eventId: id, kind: presenter.head.record, sentAt: now }, copies, ({ recipient, worst, listed }) => {
    const links = recipientLinks(deps.links, worst, recipient, now, 'drawdown');
    const mail = { recipient, now, unsubscribeUrl: links.unsubscribeUrl, preferencesUrl: links.preferencesUrl };
    const email = presenter.email({ id, breaches: listed, trackedSince: check.batch }, mail);
    const rendered = renderNoticeEmail(deps.renderer, email, worst.timezone);
    return { rendered, unsubscribeUrl: links.unsubscribeUrl, oneClickUnsubscribe: links.oneClickUnsubscribe };
  });
}

/** An account of the batch: settled once its first poll ended; its level states read only then. */
async function memberOf(deps: OnboardingNoticeDeps, account: TrackedAccount): Promise<BatchMember> {
  const base = { address: account.address, label: account.label, settled: account.polled };
  if (!account.polled || account.drawdownThresholds.length === 0) return { ...base, levels: null };
  const item = await deps.repos.alerts.get(account.address, DRAWDOWN_RULE);
  const parsed = drawdownStateSchema.safeParse(item?.state);
  if (!parsed.success) return { ...base, levels: null };
  const levels = Object.fromEntries(Object.entries(parsed.data.levels).map(([level, stored]): [string, LevelState] => [level, levelStateOf(stored)]));
  return { ...base, levels };
}
