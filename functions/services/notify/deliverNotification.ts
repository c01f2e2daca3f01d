import type { LinkMinter } from '../../links/linkMinter';
import { EmailRenderError } from '../../mail/errors';
import type { EmailRenderer } from '../../mail/render/render';
import type { Counters } from '../../shared/observability';
import type { TrackedAccount } from '../../domain/account';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import type { SuppressionRepository } from '../../store/suppressionRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { MailChart } from '../../mail/chart/mailChart';
import type { MailDeliveryDeps } from '../delivery/mailDelivery';
import type { NotifyMessage } from '../../messages/notifyMessage';
import { noticeHead, presentNotice } from '../../notices/presentNotice';
import { renderNoticeEmail } from '../../notices/renderNoticeEmail';
import type { PreferencesRepository } from '../../store/preferencesRepository';
import { recipientLinks } from '../delivery/recipientLinks';
import { mailAudience, noticeAddressees } from '../../notices/audience';
import type { DeskOperatorsRepository } from '../../store/deskOperatorsRepository';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './notificationSettings';
import type { ChannelNoticePorts } from '../delivery/channelNotices';
import { drawdownChart } from './drawdownChart';
import { currentDelegates } from './currentDelegates';
import { mailAccountAudience, type NotificationOutcome } from './mailEachRecipient';

export { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings, type NotificationOutcome };

export interface DeliverNotificationDeps extends MailDeliveryDeps {
  /** A full `Repositories` fits. */
  readonly repos: MailDeliveryDeps['repos'] & {
    readonly accounts: Pick<AccountsRepository, 'get'>;
    readonly curves: Pick<CurvesRepository, 'queryRange'>;
    readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
    readonly suppressions: Pick<SuppressionRepository, 'filter'>;
    readonly preferences: Pick<PreferencesRepository, 'filter'>;
    /** Per-recipient snoozes of drawdown alerts (one `GetItem` per drawdown message). */
    readonly alerts: Pick<AlertStateRepository, 'recipientSnoozes'>;
    /** The marked operators, read only for a notice the operators get too; absent: `OPERATOR_EMAIL` alone. */
    readonly deskOperators?: Pick<DeskOperatorsRepository, 'list'>;
  };
  readonly renderer: EmailRenderer;
  readonly links: Pick<LinkMinter, 'build'>;
  readonly counters: Counters;
  readonly now: () => number;
  readonly settings?: Partial<NotificationSettings>;
  /**
   * The channel queue and the channels' routing, for the onboarding check's channel notice only: a
   * notify message reaches the channels through its own `fanout` job (`notifyPublisher`, `fanOutEvent`).
   */
  readonly channelFanOut?: ChannelNoticePorts;
  /**
   * `OPERATOR_EMAIL`: with the marked operators, also sent a notice whose head says so (a kill-switch
   * firing or a decision's result the breaker stopped; `audience.noticeAddressees`).
   */
  readonly operatorEmail?: string | null;
}

interface SharedParts {
  chart: MailChart | null;
  maxDrawdownUsd: number | null;
  webClients: ReadonlySet<string>;
  /** Delegate names by lowercase address (where the head asks for the delegates' views). */
  names: ReadonlyMap<string, string | null>;
  /** Current delegates (drawdown alerts and new-delegate notices only; 0 otherwise). */
  delegateCount: number;
  /** The delegates not removed, where the head asks for the delegates' views. */
  listedDelegates: readonly string[] | undefined;
}

/**
 * Sends one notify message to each of the account's recipients (suppressed addresses left
 * out), each their own copy with their own unsubscribe link, exactly once per
 * (event, recipient). Notices about a delegate carry a one-click revocation link when the
 * account has a signer; drawdown alerts carry snooze links and a chart of the last days.
 * A drawdown alert skips the recipients who snoozed the account's alerts through their own link
 * (the alert machine never sees those snoozes, so the others are mailed as usual). Each recipient
 * left out (suppressed, opted out, snoozed) gets a `suppressed` entry in the account's deliveries,
 * at the event's time.
 *
 * Throws `RetryLaterError` when some recipient hit a passing failure (or another worker holds
 * the delivery), after serving the others: the queue redelivers the message and only the
 * remaining recipients are mailed. Store failures throw as they are, for the same reason.
 *
 * Email only: the channels get the event from its `fanout` job on the fan-out queue, published
 * beside this message (`notifyPublisher`), so no chat waits for these paced sends.
 */
export async function deliverNotification(deps: DeliverNotificationDeps, message: NotifyMessage): Promise<NotificationOutcome> {
  const account = await deps.repos.accounts.get(message.account);
  if (!account) return { kind: 'skipped', reason: 'the account is not tracked' };
  const settings = { ...DEFAULT_NOTIFICATION_SETTINGS, ...deps.settings };
  // Loaded once, at most, for every recipient's copy.
  let shared: Promise<SharedParts> | undefined;
  const parts = (): Promise<SharedParts> => (shared ??= sharedParts(deps, account, message, settings));
  const { email: kind, category, addressing } = noticeHead(message);
  if (kind === null) return { kind: 'skipped', reason: 'sent to channels only' };
  const now = deps.now();
  const audience = await mailAudience(
    deps.repos,
    await noticeAddressees(account.emails, addressing, { operatorEmail: deps.operatorEmail ?? null, operators: deps.repos.deskOperators }),
    category,
    // A drawdown alert skips the recipients who snoozed it through their own link.
    message.kind === 'drawdown' ? { read: () => deps.repos.alerts.recipientSnoozes(message.account), now } : undefined,
  );
  return mailAccountAudience(deps, account, audience, { eventId: message.eventId, kind, at: message.at, sentAt: now }, async ({ recipient }) => {
    const shared = await parts();
    const links = recipientLinks(deps.links, account, recipient, now, category);
    const { email } = presentNotice(message, {
      account,
      delegateCount: shared.delegateCount,
      ...(shared.listedDelegates === undefined ? {} : { listedDelegates: shared.listedDelegates }),
      links: { ...links, preferencesUrl: () => links.preferencesUrl },
      mail: {
        now,
        unsubscribeUrl: links.unsubscribeUrl,
        drawdownThresholds: account.drawdownThresholds,
        chart: shared.chart?.ref ?? null,
        maxDrawdownUsd: shared.maxDrawdownUsd,
        rearmMarginPct: settings.rearmMarginPct,
        isWebClient: (delegate) => shared.webClients.has(delegate.toLowerCase()),
        delegateName: (delegate) => shared.names.get(delegate.toLowerCase()) ?? null,
      },
    });
    if (email === undefined) throw new EmailRenderError(`the ${message.kind} presenter wrote no email`);
    return {
      rendered: renderNoticeEmail(deps.renderer, email, account.timezone),
      unsubscribeUrl: links.unsubscribeUrl,
      oneClickUnsubscribe: links.oneClickUnsubscribe,
      inlineImages: shared.chart ? [shared.chart.image] : [],
    };
  });
}

/** What every recipient's copy shares, loaded once and only when a copy is actually rendered: what the notice's head asks for, and a drawdown alert's chart. */
async function sharedParts(
  deps: DeliverNotificationDeps,
  account: TrackedAccount,
  message: NotifyMessage,
  settings: NotificationSettings,
): Promise<SharedParts> {
  const loads = noticeHead(message).loads ?? {};
  const { chart, maxDrawdownUsd } =
    message.kind === 'drawdown' ? await drawdownChart(deps.repos.curves, account, message, settings) : { chart: null, maxDrawdownUsd: null };
  const views = loads.delegateViews ? await deps.repos.delegates.listForAccount(account.address) : [];
  return {
    chart,
    maxDrawdownUsd,
    webClients: new Set(views.filter((v) => v.isWebClient).map((v) => v.delegate.toLowerCase())),
    names: new Map(views.map((v) => [v.delegate.toLowerCase(), v.name])),
    delegateCount: loads.delegateCount ? await currentDelegates(deps.repos.delegates, account) : 0,
    listedDelegates: loads.delegateViews ? views.filter((v) => v.removedAt === null).map((v) => v.delegate) : undefined,
  };
}
