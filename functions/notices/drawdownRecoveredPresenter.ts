import { formatPercent, formatMoney, formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { drawdownIncidentKey } from './drawdownIncidentKey';
import type { NoticePresenter } from './noticePresenter';
import { accountField } from './noticeParts';

/** A drawdown level recovered past the re-arm margin: chats only (it closes the level's pager incident). */
export const drawdownRecoveredPresenter: NoticePresenter<Extract<NotifyMessage, { kind: 'drawdown-recovered' }>> = {
  head: () => ({ type: 'drawdown.recovered', category: 'drawdown', email: null }),
  present(message, input) {
    const zone = input.account.timezone;
    return {
      severity: 'info',
      title: `Drawdown back below the ${message.level}% level`,
      summary: `Drawdown is ${formatPercent(message.drawdownPct)}, past the re-arm margin: the ${message.level}% alert is closed and fires again if it is reached.`,
      fields: [
        accountField(input),
        { label: 'Drawdown', value: formatPercent(message.drawdownPct) },
        { label: 'Equity', value: formatMoney(message.equityNow) },
        { label: 'As of', value: formatTime(message.asOf, zone) },
      ],
      links: [],
      // Closes the incident the notice naming this level opened.
      incident: { key: drawdownIncidentKey(input.account.address, message.level), action: 'resolve' },
      details: { level: message.level, drawdownPct: message.drawdownPct, equityNow: message.equityNow, asOf: message.asOf },
    };
  },
};
