import { killSwitchNoticeText } from '../domain/killSwitchNotice';
import { noticeWords } from '../domain/noticeText';
import { formatPercent, formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { emailBase, revokeAllLink } from './emailParts';
import type { NoticeInput } from './noticeInput';
import type { NoticePresenter } from './noticePresenter';
import { accountField, revokeAllLinks } from './noticeParts';

type KillSwitchMessage = Extract<NotifyMessage, { kind: 'kill-switch' }>;

/** The pager incident of an account's kill switch: its firing and a decision's result that left keys share it. */
export function killSwitchIncidentKey(account: string): string {
  return `kill-switch:${account.toLowerCase()}`;
}

function words(message: KillSwitchMessage, input: NoticeInput) {
  return killSwitchNoticeText(message.firing, { account: input.account.address, percent: (p) => formatPercent(p) });
}

/** The kill switch fired: what was revoked, or would have been, or why nothing was. */
export const killSwitchPresenter: NoticePresenter<KillSwitchMessage> = {
  head: () => ({ type: 'protection.kill-switch', category: 'security', email: 'kill-switch', loads: { delegateCount: true } }),
  present(message, input) {
    const { firing } = message;
    const zone = input.account.timezone;
    const text = words(message, input);
    return {
      ...noticeWords(text),
      fields: [
        accountField(input),
        { label: 'Drawdown', value: `${formatPercent(firing.drawdownPct)} (1-minute re-read: ${formatPercent(firing.rereadPct)})` },
        { label: 'Kill level', value: `${firing.levelPct}%` },
        { label: 'Peak', value: formatTime(firing.peakAt, zone) },
        { label: 'As of', value: formatTime(firing.asOf, zone) },
        { label: text.revoking ? 'Revoking' : 'Keys', value: text.delegates.length === 0 ? '(none)' : text.delegates.join(', ') },
      ],
      // Kept while keys are being revoked: a person can act if the machine could not.
      links: revokeAllLinks(input),
      // Every firing pages, whatever was done: someone must look at the positions.
      incident: { key: killSwitchIncidentKey(input.account.address), action: 'trigger' },
      details: { firing },
    };
  },
  email(message, input, mail) {
    const { firing } = message;
    const text = words(message, input);
    return {
      kind: 'kill-switch',
      view: {
        ...emailBase(input, mail),
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
        revokeAll: revokeAllLink(input),
      },
    };
  },
};
