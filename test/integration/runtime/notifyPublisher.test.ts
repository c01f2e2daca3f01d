import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackedAccount } from '../../../functions/domain/account';
import { createNotifyHandler } from '../../../functions/handlers/notify';
import type { MailSender } from '../../../functions/mail/send/sesSender';
import type { NotifyEvent, NotifyQueueEvent } from '../../../functions/messages/notifyMessage';
import { sendAll } from '../../../functions/queue/sendAll';
import { notifyPublisher } from '../../../functions/runtime/notifyPublisher';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createLocalChannelQueues } from '../../../local/localChannelQueue';
import { InProcessQueue } from '../../../local/queue/inProcessQueue';
import { drainInRounds } from '../../../local/queue/drainInRounds';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { mailDeps, mailTo, sesSender, testClock, uniqueEmail } from '../../support/delivery/mailHarness';
import { accountRecord, testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';
import { receiverSenderDeps } from '../../support/channels/receiverSenderDeps';

const NOW = Date.parse('2025-03-04T07:00:00Z');
const SALT = 0x7a11;
const tables = testTables();
const clock = testClock(NOW);
const receivers = receiversPerFile();
const env: Record<string, string> = {};

beforeAll(() => {
  env['DESK_SLACK'] = receivers.slackUrl('T9/B9/apart');
});

/** An SES sender whose sends wait until `release()`: an email being paced, for as long as the test wants. */
function pacedSender(): MailSender & { release: () => void; readonly waiting: () => number } {
  const ses = sesSender();
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  return {
    send: async (message) => {
      waiting++;
      await gate;
      waiting--;
      return ses.send(message);
    },
    release: () => open(),
    waiting: () => waiting,
  };
}

type NewDelegateEvent = Extract<NotifyEvent, { kind: 'new-delegate' }>;

function newDelegate(account: TrackedAccount, n: number): NewDelegateEvent {
  const delegate = testAddress(900 + n, SALT);
  return {
    kind: 'new-delegate',
    eventId: `delegate:${account.address}:${delegate}:1:new:apart`,
    account: account.address,
    at: NOW - 60_000,
    delegate: { address: delegate, expiryMs: null, name: `bot-${n}`, isWebClient: false },
    firstSeenAt: NOW - 60_000,
  };
}

/**
 * Chats apart from paced email (issue 20, "Isolation"): producers publish each notify event
 * through `notifyPublisher`, to the notify queue (emails) and to the fan-out queue (its fan-out
 * job), so a chat gets its notice while the email of an earlier event is still being paced. Real
 * parts: DynamoDB Local, local SES, the local Slack receiver, the deployed notify handler, fan-out
 * and channel worker on in-process queues.
 */
describe('notify events reach the channels apart from the paced emails', () => {
  it("a channel gets every event's notice while the first event's email still waits for its send slot", async () => {
    const recipient = uniqueEmail('apart');
    const account = accountRecord({ address: testAddress(1, SALT), emails: [recipient] });
    const sender = pacedSender();
    const deps = { ...mailDeps(tables, clock), sender };
    await deps.repos.accounts.create(account);
    await deps.repos.channels.create({
      name: 'apart-desk',
      type: 'slack',
      secret: 'env:DESK_SLACK',
      url: null,
      chatId: null,
      categories: ['drawdown', 'security', 'expiry'],
      accounts: [account.address],
      state: { kind: 'ok' },
      lastDelivery: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const { fanOutQueue, channelQueue } = createLocalChannelQueues({
      repos: deps.repos,
      channelSender: receiverSenderDeps(receivers, env),
      notifyQueue: { send: () => Promise.reject(new Error('no broken-channel notice expected')) },
      links: deps.links,
      log: silentLog,
      counters: memoryCounters(),
      now: clock.now,
    });
    const notifyQueue = new InProcessQueue<NotifyQueueEvent>({
      name: 'notify-apart',
      consumer: createNotifyHandler(deps),
      batchSize: 10,
      visibilityTimeoutMs: 600_000,
      maxReceiveCount: 3,
    });
    const publish = notifyPublisher(notifyQueue, fanOutQueue);
    const [first, second, third] = [newDelegate(account, 1), newDelegate(account, 2), newDelegate(account, 3)];
    const entries = (events: readonly NewDelegateEvent[]) => events.map((body) => ({ id: body.eventId, body }));
    await sendAll(publish, entries([first, second, third]));

    const emails = notifyQueue.drain();
    // The first email is taken and held at its send before the chats are looked at.
    for (let i = 0; i < 200 && sender.waiting() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await drainInRounds([fanOutQueue, channelQueue]);
    // The second event is published again (a producer's retry): its chat notice still goes once.
    // (Published after the first went: two copies in flight at once meet at the delivery claim,
    // and the later one is re-queued for 30 s.)
    await sendAll(publish, entries([second]));
    await drainInRounds([fanOutQueue, channelQueue]);
    const delivered = receivers.received.filter((r) => r.destination === 'T9/B9/apart' && r.status === 200);
    const about = (event: NewDelegateEvent) => delivered.filter((r) => r.body.includes(event.delegate.address));
    expect(sender.waiting(), "the first event's email is still waiting for its send").toBe(1);
    expect(await mailTo(recipient), 'no email went out yet').toEqual([]);
    for (const event of [first, second, third]) expect(about(event), event.eventId).toHaveLength(1);

    sender.release();
    await emails;
    const mails = await mailTo(recipient);
    expect(mails.map((m) => m.headers.get('x-sentinel-event-id')).sort()).toEqual([first.eventId, second.eventId, third.eventId].sort());
  }, 60_000);
});
