import type { Notice, NoticeField, NoticeLink } from '../../domain/notice';
import { formatCountdown, formatDuration, formatMoney, formatPercent, formatTime } from '../../mail/render/format';
import type { NotifyMessage } from '../../messages/notifyMessage';
import { categoryOfEmail } from '../../domain/mailCategory';
import { EMAIL_KIND_OF } from './emailKindOf';
import { unknownKeyNoticeText } from '../../domain/unknownKeyNotice';
import { killSwitchNoticeText } from '../../domain/killSwitchNotice';
import { decisionResultNoticeText } from '../../domain/decisionResultNotice';
import { noticeWords } from '../../domain/noticeText';
import { isEmailed } from './emailedMessage';
import { noticeTypeOf } from './noticeTypeOf';
import { cleanDelegateName } from '../../domain/delegateName';
import { verbatim } from '../../domain/verbatimText';

/** What a notice shows besides the message: the account, and links that are not anyone's own (chat is shared). */
export interface NoticeContext {
  readonly account: { address: string; label: string | null; timezone: string };
  /** One-click revocation of a delegate; `null` when the account has no signer. */
  readonly revokeUrl: (delegate: string) => string | null;
  /** Snoozes the drawdown alerts of the account in the channel the notice goes to. */
  readonly snoozeUrl: (hours: number) => string;
  /** The channel's preferences for the account (every notice carries it). */
  readonly preferencesUrl: () => string;
  /** Revokes every delegate its confirmation page lists; `null` when the account has no signer. */
  readonly revokeAllUrl: () => string | null;
  /** The account's delegates known when the notice is made (drawdown and new-delegate notices). */
  readonly delegateCount: number;
}

const SNOOZE_HOURS = 24;

/** The pager incident of one drawdown level of one account: the trigger and its resolve share it. */
export function drawdownIncidentKey(account: string, level: number): string {
  return `drawdown:${account.toLowerCase()}:${level}`;
}

/** A delegate as a notice names it: its name (cleaned, shown as code in chat: an intruder may choose it) and address. */
function who(delegate: { address: string; name: string | null }): string {
  const name = cleanDelegateName(delegate.name);
  return name === null ? delegate.address : `${verbatim(name)} (${delegate.address})`;
}

/** A delegate's name as a field value: shown as code in chat. */
function nameValue(name: string | null): string {
  const cleaned = cleanDelegateName(name);
  return cleaned === null ? '(none)' : verbatim(cleaned);
}

function revokeLinks(ctx: NoticeContext, delegate: string): NoticeLink[] {
  const url = ctx.revokeUrl(delegate);
  return url === null ? [] : [{ label: 'Revoke', url, action: 'revoke' }];
}

/** The "Revoke all N API keys" link: only with a signer and at least one delegate (its GET changes nothing, so a chat preview is safe). */
function revokeAllLinks(ctx: NoticeContext): NoticeLink[] {
  const url = ctx.delegateCount > 0 ? ctx.revokeAllUrl() : null;
  if (url === null) return [];
  return [{ label: `Revoke all ${ctx.delegateCount} API key${ctx.delegateCount === 1 ? '' : 's'}`, url, action: 'revoke-all' }];
}

/**
 * The notice a notify message becomes for one channel (its Snooze and Preferences links are the
 * channel's). Text others chose (a delegate's name) is cleaned and marked verbatim: each renderer
 * escapes it for its medium and shows it as code. Every notice ends with the channel's Preferences link.
 */
export function noticeOfMessage(message: NotifyMessage, ctx: NoticeContext): Notice {
  const notice = noticeBody(message, ctx);
  return { ...notice, type: noticeTypeOf(message), links: [...notice.links, { label: 'Preferences', url: ctx.preferencesUrl(), action: 'preferences' }] };
}

function noticeBody(message: NotifyMessage, ctx: NoticeContext): Notice {
  const zone = ctx.account.timezone;
  const base = {
    id: message.eventId,
    category: isEmailed(message) ? categoryOfEmail(EMAIL_KIND_OF[message.kind]) : ('drawdown' as const),
    account: { address: ctx.account.address, label: ctx.account.label },
    at: message.at,
    chart: null,
  };
  const account: NoticeField = { label: 'Account', value: ctx.account.label ? `${ctx.account.label} (${ctx.account.address})` : ctx.account.address };
  switch (message.kind) {
    case 'drawdown':
      return {
        ...base,
        type: message.notice === 'fired' ? 'drawdown.fired' : 'drawdown.repeated',
        severity: message.level >= 20 ? 'critical' : 'warning',
        title: `Drawdown ${formatPercent(message.drawdownPct)} reached the ${message.level}% level`,
        summary: `Equity is ${formatMoney(message.dollarDrawdown)} below its peak of ${formatMoney(message.peakEquity)} (${formatTime(message.peakAt, zone)}).`,
        fields: [
          account,
          { label: 'Drawdown', value: `${formatPercent(message.drawdownPct)} (${formatMoney(-message.dollarDrawdown)})` },
          { label: 'Deepest', value: formatPercent(message.maxDrawdownPct) },
          { label: 'Equity', value: formatMoney(message.equityNow) },
          { label: 'Levels breached', value: message.levels.map((l) => `${l}%`).join(', ') },
          { label: 'As of', value: formatTime(message.asOf, zone) },
          ...(message.crossedAt === undefined
            ? []
            : [
                {
                  label: 'Crossed',
                  value: `${formatTime(message.crossedAt, zone)}${message.lateByMs === undefined ? '' : ` (this alert is late by ${formatDuration(message.lateByMs)})`}`,
                },
              ]),
        ],
        links: [{ label: 'Snooze 24 hours', url: ctx.snoozeUrl(SNOOZE_HOURS), action: 'snooze' }, ...revokeAllLinks(ctx)],
        chart: { alt: 'Equity and PnL over the last days' },
        incident: { key: drawdownIncidentKey(ctx.account.address, message.level), action: 'trigger' },
        details: {
          level: message.level,
          levels: message.levels,
          drawdownPct: message.drawdownPct,
          maxDrawdownPct: message.maxDrawdownPct,
          dollarDrawdown: message.dollarDrawdown,
          peakAt: message.peakAt,
          peakEquity: message.peakEquity,
          equityNow: message.equityNow,
          pnlNow: message.pnlNow,
          asOf: message.asOf,
        },
      };
    case 'drawdown-recovered':
      return {
        ...base,
        type: 'drawdown.recovered',
        severity: 'info',
        title: `Drawdown back below the ${message.level}% level`,
        summary: `Drawdown is ${formatPercent(message.drawdownPct)}, past the re-arm margin: the ${message.level}% alert is closed and fires again if it is reached.`,
        fields: [
          account,
          { label: 'Drawdown', value: formatPercent(message.drawdownPct) },
          { label: 'Equity', value: formatMoney(message.equityNow) },
          { label: 'As of', value: formatTime(message.asOf, zone) },
        ],
        links: [],
        // Closes the incident the notice naming this level opened.
        incident: { key: drawdownIncidentKey(ctx.account.address, message.level), action: 'resolve' },
        details: { level: message.level, drawdownPct: message.drawdownPct, equityNow: message.equityNow, asOf: message.asOf },
      };
    case 'new-delegate': {
      const fields: NoticeField[] = [
        account,
        { label: 'Delegate', value: message.delegate.address },
        { label: 'Name', value: nameValue(message.delegate.name) },
        { label: 'Kind', value: message.delegate.isWebClient ? 'web session key' : 'API key' },
        { label: 'Expires', value: message.delegate.expiryMs === null ? 'never' : formatTime(message.delegate.expiryMs, zone) },
        { label: 'First seen', value: formatTime(message.firstSeenAt, zone) },
      ];
      const incident = { key: `delegate:${ctx.account.address.toLowerCase()}:${message.delegate.address.toLowerCase()}`, action: 'trigger' as const };
      const details = { delegate: message.delegate, firstSeenAt: message.firstSeenAt, ...(message.protection ? { protection: message.protection } : {}) };
      if (message.protection) {
        const text = unknownKeyNoticeText(message.protection, { who: who(message.delegate), account: ctx.account.address, delegate: message.delegate.address });
        const expected = message.protection.verdict === 'announced';
        return {
          ...base,
          type: 'delegate.new',
          ...noticeWords(text),
          fields,
          // Every unknown or announced key keeps its links: one being revoked too, so a person can act if the signer cannot.
          links: [...revokeLinks(ctx, message.delegate.address), ...revokeAllLinks(ctx)],
          // An announced key pages no one; an unknown one always does, wherever a pager takes security notices.
          incident: expected ? null : incident,
          details,
        };
      }
      return {
        ...base,
        type: 'delegate.new',
        severity: 'critical',
        title: 'A new delegate can trade this account',
        summary: `${who(message.delegate)} appeared. If you did not add it, revoke it now.`,
        fields,
        links: [...revokeLinks(ctx, message.delegate.address), ...revokeAllLinks(ctx)],
        incident,
        details,
      };
    }
    case 'expiry-warning':
    case 'expired': {
      const expired = message.kind === 'expired';
      return {
        ...base,
        type: expired ? 'delegate.expired' : 'delegate.expiring',
        severity: expired ? 'warning' : 'info',
        // The countdown the email shows too (`formatCountdown`), as of the event: not the warning step, which is only when it was sent.
        title: expired ? 'A delegate expired' : `A delegate expires ${formatCountdown(message.expiryMs, message.at)}`,
        summary: `${who(message.delegate)} ${expired ? 'expired' : 'expires'} ${formatTime(message.expiryMs, zone)}.`,
        fields: [account, { label: 'Delegate', value: message.delegate.address }, { label: 'Expiry', value: formatTime(message.expiryMs, zone) }],
        links: [],
        incident: null,
        details: { delegate: message.delegate, expiryMs: message.expiryMs, ...(message.kind === 'expiry-warning' ? { stepDays: message.stepDays } : {}) },
      };
    }
    case 'revocation-result': {
      const gone = message.outcome === 'revoked' || message.outcome === 'already-revoked';
      return {
        ...base,
        type: 'revocation.result',
        severity: gone ? 'info' : 'critical',
        title: gone ? 'Delegate revoked' : `Revocation ${message.outcome}`,
        summary: gone
          ? `${who(message.delegate)} can no longer trade this account.`
          : `${who(message.delegate)} may still trade this account: ${message.message ?? 'no detail'}.`,
        fields: [account, { label: 'Delegate', value: message.delegate.address }, { label: 'Outcome', value: message.outcome }],
        links: gone ? [] : revokeLinks(ctx, message.delegate.address),
        // The new-delegate incident closes once the delegate is gone.
        incident: gone ? { key: `delegate:${ctx.account.address.toLowerCase()}:${message.delegate.address.toLowerCase()}`, action: 'resolve' } : null,
        details: {
          delegate: message.delegate,
          outcome: message.outcome,
          message: message.message,
          nonce: message.nonce,
          transactionSignature: message.transactionSignature,
        },
      };
    }
    case 'revoke-all-result': {
      const removed = message.units.filter((u) => u.outcome === 'revoked' || u.outcome === 'already-revoked').length;
      const all = removed === message.units.length;
      return {
        ...base,
        type: 'revocation.result',
        severity: all ? 'info' : 'critical',
        title: all ? `All ${message.units.length} API keys revoked` : `${message.units.length - removed} of ${message.units.length} API keys not revoked`,
        summary: all
          ? 'Every key the revoke-all page listed can no longer trade this account.'
          : 'Some keys may still trade this account; the revoke-all page can try the ones that sent nothing again.',
        fields: [account, ...message.units.slice(0, 8).map((u) => ({ label: u.address, value: u.text }))],
        links: [],
        incident: null,
        details: { units: message.units },
      };
    }
    case 'kill-switch': {
      const { firing } = message;
      const text = killSwitchNoticeText(firing, { account: ctx.account.address, percent: (p) => formatPercent(p) });
      return {
        ...base,
        type: 'protection.kill-switch',
        ...noticeWords(text),
        fields: [
          account,
          { label: 'Drawdown', value: `${formatPercent(firing.drawdownPct)} (1-minute re-read: ${formatPercent(firing.rereadPct)})` },
          { label: 'Kill level', value: `${firing.levelPct}%` },
          { label: 'Peak', value: formatTime(firing.peakAt, zone) },
          { label: 'As of', value: formatTime(firing.asOf, zone) },
          { label: text.revoking ? 'Revoking' : 'Keys', value: text.delegates.length === 0 ? '(none)' : text.delegates.join(', ') },
        ],
        // Kept while keys are being revoked: a person can act if the machine could not.
        links: revokeAllLinks(ctx),
        // Every firing pages, whatever was done: someone must look at the positions.
        incident: { key: `kill-switch:${ctx.account.address.toLowerCase()}`, action: 'trigger' },
        details: { firing },
      };
    }
    case 'decision-result': {
      const { result } = message;
      const text = decisionResultNoticeText(result, { account: ctx.account.address, time: (ms) => formatTime(ms, zone) });
      const delegate = result.units[0]?.address.toLowerCase() ?? '';
      const key =
        result.rule === 'kill-switch' ? `kill-switch:${ctx.account.address.toLowerCase()}` : `delegate:${ctx.account.address.toLowerCase()}:${delegate}`;
      const removed = text.severity !== 'critical';
      return {
        ...base,
        type: 'revocation.result',
        ...noticeWords(text),
        fields: [
          account,
          ...text.rows
            .slice(0, 8)
            .map((r) => ({ label: r.who, value: `${r.status === 'revoked' || r.status === 'gone' ? r.status : 'NOT revoked'}: ${r.text}` })),
        ],
        links: text.actNow ? revokeAllLinks(ctx) : [],
        // A key not revoked keeps its incident open (same key: the pager updates it); an unknown key removed closes its own.
        incident: !removed ? { key, action: 'trigger' } : result.rule === 'unknown-delegate' ? { key, action: 'resolve' } : null,
        details: { result },
      };
    }
    case 'account-snoozed':
      return {
        ...base,
        type: 'drawdown.snoozed',
        severity: 'info',
        // A chat is shared: one recipient's snooze is not named there.
        title: message.recipient === undefined ? 'Drawdown alerts snoozed for every recipient' : 'Drawdown alerts snoozed for one recipient',
        summary: `The operator snoozed ${message.recipient === undefined ? "this account's drawdown alerts" : "one recipient's drawdown alert emails"} until ${formatTime(message.until, zone)}; levels are still tracked.`,
        fields: [account, { label: 'Until', value: formatTime(message.until, zone) }],
        links: [],
        incident: null,
        details: { until: message.until },
      };
  }
}
