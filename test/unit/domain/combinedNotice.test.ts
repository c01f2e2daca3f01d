import { describe, expect, it } from 'vitest';
import { discordMessage } from '../../../functions/channels/discord/discordMessage';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegram/telegramMessage';
import { backlogEntryOf, COMBINED_LISTED, combinedNotice } from '../../../functions/domain/combinedNotice';
import { channelJobSchema } from '../../../functions/messages/channelJob';
import { checkDiscord, checkSlack, checkTelegram } from '../../../local/receivers/chatRules';
import { ACCOUNT, drawdownEvent, expiringEvent, HOSTILE_NAME, newDelegateEvent, noticeOf } from '../../support/channels/noticeFixtures';

describe('combinedNotice', () => {
  const entries = [
    ...Array.from({ length: 300 }, (_, i) => backlogEntryOf(noticeOf({ ...drawdownEvent, eventId: `d${i}`, at: drawdownEvent.at + i }))),
    backlogEntryOf(noticeOf(expiringEvent)),
    {
      ...backlogEntryOf(noticeOf(newDelegateEvent)),
      title: `Hostile ${HOSTILE_NAME}`,
      account: { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', label: HOSTILE_NAME },
    },
  ];

  it('counts every notice, lists the oldest, keeps the highest severity, and travels on the channel queue', () => {
    const notice = combinedNotice('desk', entries, 5);
    expect(notice.title).toBe('302 alerts on 2 accounts');
    expect(notice.severity).toBe('critical');
    expect(notice.fields).toHaveLength(COMBINED_LISTED);
    expect(notice.summary).toContain(`${302 - COMBINED_LISTED} more`);
    expect(notice.links).toEqual([]);
    expect(notice.incident).toBeNull();
    expect((notice.details['notices'] as unknown[]).length).toBe(302);
    expect(channelJobSchema.parse({ channel: 'desk', notice, attempt: 0 })).toMatchObject({ notice: { id: notice.id } });
  });

  it("renders within each chat API's rules, hostile text escaped", () => {
    const notice = combinedNotice('desk', [...entries].reverse(), 5);
    expect(notice.fields[0]?.value, 'oldest first').toBe(noticeOf(drawdownEvent).title);
    const hostile = combinedNotice('desk', entries.slice(-1), 5);
    const slack = slackMessage(hostile);
    expect(checkSlack(slack)).toBeNull();
    expect(JSON.stringify(slack)).not.toContain('<!channel>');
    expect(checkDiscord(discordMessage(hostile))).toBeNull();
    const telegram = telegramMessage(notice, '-1001');
    expect(checkTelegram(telegram.method, telegram.body)).toBeNull();
    expect(checkTelegram('sendMessage', telegramMessage(hostile, '-1').body)).toBeNull();
  });

  it('words its title from what it holds: alerts, reports, or notices when mixed', () => {
    const at = (i: number) => ({ at: drawdownEvent.at + i, account: { address: ACCOUNT, label: null } });
    const report = { ...backlogEntryOf(noticeOf(drawdownEvent)), ...at(1), id: 'r1', type: 'report.daily' as const, category: 'reports' as const };
    const digest = { ...report, ...at(2), id: 'r2', type: 'report.digest' as const };
    const recovered = { ...backlogEntryOf(noticeOf(drawdownEvent)), ...at(3), id: 'n1', type: 'drawdown.recovered' as const };
    const alert = { ...backlogEntryOf(noticeOf(drawdownEvent)), ...at(4), id: 'a1' };
    expect(combinedNotice('desk', [alert], 5).title).toBe('1 alert on 1 account');
    expect(combinedNotice('desk', [report, digest], 5).title).toBe('2 reports on 1 account');
    expect(combinedNotice('desk', [recovered], 5).title).toBe('1 notice on 1 account');
    expect(combinedNotice('desk', [alert, report], 5).title).toBe('2 notices on 1 account');
    expect(combinedNotice('desk', [alert, recovered, report], 5).title).toBe('3 notices on 1 account');
  });

  it('refuses an empty backlog', () => {
    expect(() => combinedNotice('desk', [], 0)).toThrow(RangeError);
  });
});
