import type { RecipientLinks } from '../delivery/recipientLinks';
import type { ChartRef, DelegateProtectionView, DelegateRow, EmailKind, EmailViews, RevokeAllLink } from '../../mail/render/views';
import type { EmailedMessage } from './emailedMessage';
import { formatDuration } from '../../mail/render/format';
import { unknownKeyNoticeText } from '../../domain/unknownKeyNotice';
import { killSwitchNoticeText } from '../../domain/killSwitchNotice';
import { decisionResultNoticeText } from '../../domain/decisionResultNotice';
import { formatPercent, formatTime } from '../../mail/render/format';

/** The snooze choices a drawdown alert offers. */
export const SNOOZE_CHOICES: readonly { label: string; hours: number }[] = [
  { label: 'Snooze 24 hours', hours: 24 },
  { label: 'Snooze 7 days', hours: 7 * 24 },
];

/** Everything besides the message that an alert email shows. */
export interface NotificationContext {
  readonly account: { address: string; label: string | null; drawdownThresholds: readonly number[]; timezone: string };
  readonly now: number;
  readonly links: RecipientLinks;
  /** Recent equity and PnL, drawdown alerts only. */
  readonly chart: ChartRef | null;
  /** Dollar loss of the deepest drawdown over the evaluated range (drawdown alerts); `null` shows the current one. */
  readonly maxDrawdownUsd: number | null;
  /** The alert's re-arm margin, percent points. */
  readonly rearmMarginPct: number;
  /** Whether the delegate is a web session key (the revocation result does not say). */
  readonly isWebClient: (delegate: string) => boolean;
  /** The delegate's name as collection saw it (revoke-all results), `null` when unnamed or unknown. */
  readonly delegateName: (delegate: string) => string | null;
  /** The account's delegates known at send time (drawdown alerts and new-delegate notices; the revoke-all link's N). */
  readonly delegateCount: number;
}

/** The kinds of alert email. */
export type NotificationEmailKind = Extract<
  EmailKind,
  'drawdown-alert' | 'delegate-expiry' | 'new-delegate' | 'revocation-result' | 'revoke-all-result' | 'snooze-notice' | 'kill-switch' | 'decision-result'
>;

/** An alert email: its kind and view (of the kinds `K`, by default any). */
export type NotificationEmail<K extends NotificationEmailKind = NotificationEmailKind> = { [P in K]: { kind: P; view: EmailViews[P] } }[K];

const TX_SIGNATURE = /^0x[0-9a-fA-F]+$/;

function delegateRow(delegate: { address: string; name: string | null; expiryMs: number | null; isWebClient: boolean }, links: RecipientLinks): DelegateRow {
  return {
    name: delegate.name,
    address: delegate.address,
    kind: delegate.isWebClient ? 'web-session' : 'api-key',
    expiryMs: delegate.expiryMs,
    revokeUrl: links.revokeUrl(delegate.address),
  };
}

/** The "Revoke all N API keys" link: only with a signer and at least one delegate. */
function revokeAllLink(ctx: NotificationContext): RevokeAllLink | null {
  if (ctx.delegateCount < 1) return null;
  const url = ctx.links.revokeAllUrl();
  return url === null ? null : { url, count: ctx.delegateCount };
}

/** The email view for a notify message, for one recipient. */
export function notificationEmail(message: EmailedMessage, ctx: NotificationContext): NotificationEmail {
  const base = {
    account: { address: ctx.account.address, label: ctx.account.label },
    generatedAtMs: ctx.now,
    links: { unsubscribeUrl: ctx.links.unsubscribeUrl, preferencesUrl: ctx.links.preferencesUrl, statusUrl: null },
  };
  switch (message.kind) {
    case 'drawdown': {
      const configured = ctx.account.drawdownThresholds.length > 0 ? ctx.account.drawdownThresholds : message.levels;
      return {
        kind: 'drawdown-alert',
        view: {
          ...base,
          thresholdPct: message.level,
          repeat: message.notice === 'repeated',
          drawdown: {
            currentPct: message.drawdownPct,
            currentUsd: message.dollarDrawdown,
            maxPct: message.maxDrawdownPct,
            maxUsd: ctx.maxDrawdownUsd ?? message.dollarDrawdown,
            peakEquityUsd: message.peakEquity,
            peakAtMs: message.peakAt,
          },
          equityUsd: message.equityNow,
          thresholdsPct: [...configured],
          rearmMarginPct: ctx.rearmMarginPct,
          lastPointAtMs: message.asOf,
          crossing:
            message.crossedAt === undefined
              ? null
              : { atMs: message.crossedAt, lateBy: message.lateByMs === undefined ? null : formatDuration(message.lateByMs) },
          chart: ctx.chart,
          snoozeLinks: SNOOZE_CHOICES.map((c) => ({ label: c.label, url: ctx.links.snoozeUrl(c.hours) })),
          revokeAll: revokeAllLink(ctx),
        },
      };
    }
    case 'new-delegate':
      return {
        kind: 'new-delegate',
        view: {
          ...base,
          delegate: delegateRow(message.delegate, ctx.links),
          firstSeenAtMs: message.firstSeenAt,
          revokeAll: revokeAllLink(ctx),
          protection: protectionView(message, ctx),
        },
      };
    case 'expiry-warning':
    case 'expired':
      return {
        kind: 'delegate-expiry',
        view: {
          ...base,
          phase: message.kind === 'expired' ? 'expired' : 'warning',
          delegate: { ...delegateRow(message.delegate, ctx.links), expiryMs: message.expiryMs },
        },
      };
    case 'revocation-result':
      return {
        kind: 'revocation-result',
        view: {
          ...base,
          outcome: message.outcome,
          delegate: {
            name: message.delegate.name,
            address: message.delegate.address,
            kind: ctx.isWebClient(message.delegate.address) ? 'web-session' : 'api-key',
          },
          attemptedAtMs: message.at,
          chainMessage: message.message === null ? null : message.message.slice(0, 1_000),
          nonce: message.nonce,
          txSignature: message.transactionSignature !== null && TX_SIGNATURE.test(message.transactionSignature) ? message.transactionSignature : null,
        },
      };
    case 'revoke-all-result':
      return {
        kind: 'revoke-all-result',
        view: {
          ...base,
          rows: message.units.map((u) => ({
            name: ctx.delegateName(u.address),
            address: u.address,
            kind: ctx.isWebClient(u.address) ? 'web-session' : 'api-key',
            outcome: u.outcome,
            text: u.text.slice(0, 2_000),
            nonce: u.nonce,
          })),
          removed: message.units.filter((u) => u.outcome === 'revoked' || u.outcome === 'already-revoked').length,
          settledAtMs: message.at,
        },
      };
    case 'account-snoozed':
      return { kind: 'snooze-notice', view: { ...base, untilMs: message.until, forYouOnly: message.recipient !== undefined } };
    case 'kill-switch': {
      const { firing } = message;
      const text = killSwitchNoticeText(firing, { account: ctx.account.address, percent: (p) => formatPercent(p) });
      return {
        kind: 'kill-switch',
        view: {
          ...base,
          title: text.title,
          summary: text.summary,
          lines: [...text.lines],
          revoking: text.revoking,
          dryRun: firing.action.kind === 'requested' && firing.action.outcome.kind === 'dry-run',
          delegates: [...text.delegates],
          levelPct: firing.levelPct,
          drawdownPct: firing.drawdownPct,
          rereadPct: firing.rereadPct,
          peakAtMs: firing.peakAt,
          asOfMs: firing.asOf,
          // Kept while keys are being revoked: a person can act if the machine could not.
          revokeAll: revokeAllLink(ctx),
        },
      };
    }
    case 'decision-result': {
      const text = decisionResultNoticeText(message.result, { account: ctx.account.address, time: (ms) => formatTime(ms, ctx.account.timezone) });
      return {
        kind: 'decision-result',
        view: {
          ...base,
          title: text.title,
          summary: text.summary,
          lines: [...text.lines],
          rows: text.rows.map((r) => ({ ...r })),
          critical: text.severity === 'critical',
          settledAtMs: message.at,
          revokeAll: text.actNow ? revokeAllLink(ctx) : null,
        },
      };
    }
  }
}

function protectionView(message: Extract<EmailedMessage, { kind: 'new-delegate' }>, ctx: NotificationContext): DelegateProtectionView | null {
  if (message.protection === undefined) return null;
  const { delegate } = message;
  const who = delegate.name ? `"${delegate.name}" (${delegate.address})` : delegate.address;
  const text = unknownKeyNoticeText(message.protection, { who, account: ctx.account.address, delegate: delegate.address });
  return {
    title: text.title,
    summary: text.summary,
    verdict: message.protection.verdict === 'announced' ? 'expected' : 'unknown',
    revoked: text.revoked,
    lines: [...text.lines],
  };
}
