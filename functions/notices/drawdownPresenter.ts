import { formatDuration, formatMoney, formatPercent, formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { drawdownIncidentKey } from './drawdownIncidentKey';
import { emailBase, revokeAllLink } from './emailParts';
import type { NoticePresenter } from './noticePresenter';
import { accountField, revokeAllLinks } from './noticeParts';

type DrawdownMessage = Extract<NotifyMessage, { kind: 'drawdown' }>;

/** The snooze a chat's drawdown alert offers. */
const DAY_SNOOZE = { label: 'Snooze 24 hours', hours: 24 };

/** The snooze choices a drawdown alert email offers. */
export const SNOOZE_CHOICES: readonly { label: string; hours: number }[] = [DAY_SNOOZE, { label: 'Snooze 7 days', hours: 7 * 24 }];

/** A drawdown level reached (fired) or still breached (repeated). */
export const drawdownPresenter: NoticePresenter<DrawdownMessage> = {
  head: (message) => ({
    type: message.notice === 'fired' ? 'drawdown.fired' : 'drawdown.repeated',
    category: 'drawdown',
    email: 'drawdown-alert',
    loads: { delegateCount: true },
  }),
  present(message, input) {
    const zone = input.account.timezone;
    return {
      severity: message.level >= 20 ? 'critical' : 'warning',
      title: `Drawdown ${formatPercent(message.drawdownPct)} reached the ${message.level}% level`,
      summary: `Equity is ${formatMoney(message.dollarDrawdown)} below its peak of ${formatMoney(message.peakEquity)} (${formatTime(message.peakAt, zone)}).`,
      fields: [
        accountField(input),
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
      links: [{ label: DAY_SNOOZE.label, url: input.links.snoozeUrl(DAY_SNOOZE.hours), action: 'snooze' }, ...revokeAllLinks(input)],
      chart: { alt: 'Equity and PnL over the last days' },
      incident: { key: drawdownIncidentKey(input.account.address, message.level), action: 'trigger' },
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
  },
  email(message, input, mail) {
    const configured = mail.drawdownThresholds.length > 0 ? mail.drawdownThresholds : message.levels;
    return {
      kind: 'drawdown-alert',
      view: {
        ...emailBase(input, mail),
        thresholdPct: message.level,
        repeat: message.notice === 'repeated',
        drawdown: {
          currentPct: message.drawdownPct,
          currentUsd: message.dollarDrawdown,
          maxPct: message.maxDrawdownPct,
          maxUsd: mail.maxDrawdownUsd ?? message.dollarDrawdown,
          peakEquityUsd: message.peakEquity,
          peakAtMs: message.peakAt,
        },
        equityUsd: message.equityNow,
        thresholdsPct: [...configured],
        rearmMarginPct: mail.rearmMarginPct,
        lastPointAtMs: message.asOf,
        crossing:
          message.crossedAt === undefined
            ? null
            : { atMs: message.crossedAt, lateBy: message.lateByMs === undefined ? null : formatDuration(message.lateByMs) },
        chart: mail.chart,
        snoozeLinks: SNOOZE_CHOICES.map((c) => ({ label: c.label, url: input.links.snoozeUrl(c.hours) })),
        revokeAll: revokeAllLink(input),
      },
    };
  },
};
