import { decisionResultNoticeText } from '../domain/decisionResultNotice';
import { noticeWords } from '../domain/noticeText';
import { formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { emailBase, revokeAllLink } from './emailParts';
import { killSwitchIncidentKey } from './killSwitchPresenter';
import { delegateIncidentKey } from './newDelegatePresenter';
import type { NoticeInput } from './noticeInput';
import type { NoticePresenter } from './noticePresenter';
import { accountField, revokeAllLinks } from './noticeParts';

type DecisionResultMessage = Extract<NotifyMessage, { kind: 'decision-result' }>;

function words(message: DecisionResultMessage, input: NoticeInput) {
  return decisionResultNoticeText(message.result, { account: input.account.address, time: (ms) => formatTime(ms, input.account.timezone) });
}

/** An automatic decision settled: what was revoked, refused or failed and why, what is left. */
export const decisionResultPresenter: NoticePresenter<DecisionResultMessage> = {
  head: () => ({ type: 'revocation.result', category: 'security', email: 'decision-result', loads: { delegateCount: true } }),
  present(message, input) {
    const { result } = message;
    const text = words(message, input);
    const key =
      result.rule === 'kill-switch' ? killSwitchIncidentKey(input.account.address) : delegateIncidentKey(input.account.address, result.units[0]?.address ?? '');
    const removed = text.severity !== 'critical';
    return {
      ...noticeWords(text),
      fields: [
        accountField(input),
        ...text.rows
          .slice(0, 8)
          .map((r) => ({ label: r.who, value: `${r.status === 'revoked' || r.status === 'gone' ? r.status : 'NOT revoked'}: ${r.text}` })),
      ],
      links: text.actNow ? revokeAllLinks(input) : [],
      // A key not revoked keeps its incident open (same key: the pager updates it); an unknown key removed closes its own.
      incident: !removed ? { key, action: 'trigger' } : result.rule === 'unknown-delegate' ? { key, action: 'resolve' } : null,
      details: { result },
    };
  },
  email(message, input, mail) {
    const text = words(message, input);
    return {
      kind: 'decision-result',
      view: {
        ...emailBase(input, mail),
        title: text.title,
        summary: text.summary,
        lines: [...text.lines],
        rows: text.rows.map((r) => ({ ...r })),
        critical: text.severity === 'critical',
        settledAtMs: message.at,
        revokeAll: text.actNow ? revokeAllLink(input) : null,
      },
    };
  },
};
