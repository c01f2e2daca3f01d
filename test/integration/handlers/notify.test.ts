import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createNotifyHandler, type NotifyDeps } from '../../../functions/handlers/notify';
import { preferencesPageOf } from '../../support/revocation/linkPages';
import type { NotifyEvent, NotifyQueueEvent } from '../../../functions/messages/notifyMessage';
import { channelBrokenMessage } from '../../support/channels/noticeFixtures';
import type { TrackedAccount } from '../../../functions/domain/account';
import { InProcessQueue } from '../../../local/queue/inProcessQueue';
import { lambdaContext } from '../../../local/lambdaContext';
import { accountRecord, testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';
import { fakeSesPerFile } from '../../support/delivery/fakeSesPerFile';
import {
  LINK_SECRET,
  PUBLIC_BASE_URL,
  RETENTION_MS,
  header,
  linkTokens,
  mailDeps,
  mailTo,
  sesSender,
  testClock,
  testLinks,
  uniqueEmail,
} from '../../support/delivery/mailHarness';

const NOW = Date.parse('2025-03-04T07:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SALT = 0x4e07;
const DELEGATE = testAddress(900, SALT);
// Each invocation has its own time left, as in Lambda: one context for the whole file runs out once the file has run 25 s.
const context = (): Context => lambdaContext('notify-test');

const tables = testTables();
const clock = testClock(NOW);

let nextAccount = 1;
async function trackedAccount(overrides: Partial<TrackedAccount> = {}): Promise<TrackedAccount> {
  const account = accountRecord({ address: testAddress(nextAccount++, SALT), emails: [uniqueEmail('owner')], timezone: 'Europe/Berlin', ...overrides });
  await mailDeps(tables, clock).repos.accounts.create(account);
  return account;
}

function newDelegateEvent(account: string, eventId = `delegate:${account}:${DELEGATE}:1:new`): NotifyEvent {
  return {
    kind: 'new-delegate',
    eventId,
    account,
    at: NOW - 60_000,
    delegate: { address: DELEGATE, expiryMs: NOW + 30 * DAY, name: 'arb-bot', isWebClient: false },
    firstSeenAt: NOW - 60_000,
  };
}

/** Delivers `bodies` through the in-process queue (real SQS events); returns the events it delivered and the queue. */
async function throughQueue(deps: NotifyDeps, bodies: readonly NotifyQueueEvent[], options: { maxReceiveCount?: number } = {}) {
  const handler = createNotifyHandler(deps);
  const delivered: { event: SQSEvent; response: SQSBatchResponse }[] = [];
  let t = clock.now();
  const queue = new InProcessQueue<NotifyQueueEvent>({
    name: 'notify-test',
    consumer: async (event, ctx) => {
      const response = await handler(event, ctx);
      delivered.push({ event, response });
      return response;
    },
    visibilityTimeoutMs: 60_000,
    maxReceiveCount: options.maxReceiveCount ?? 3,
    clock: { now: () => t, sleep: async (ms) => void (t += ms) },
    onDeadLetter: () => undefined,
  });
  await queue.send(bodies.map((body, i) => ({ id: String(i), body })));
  const drained = await queue.drain();
  return { delivered, drained, queue };
}

function oneClickEvent(url: string): APIGatewayProxyEventV2 {
  const parsed = new URL(url);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: parsed.pathname,
    rawQueryString: parsed.search.slice(1),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST', path: parsed.pathname, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'mail-provider' } },
  } as unknown as APIGatewayProxyEventV2;
}

describe('notify: unsubscribe by category', () => {
  it('a one-click List-Unsubscribe of a drawdown alert stops drawdown alerts only: security notices keep coming', async () => {
    const recipient = uniqueEmail('by-category');
    const account = await trackedAccount({ emails: [recipient], signer: 'env:OWNER_KEY', drawdownThresholds: [5, 10] });
    const deps = mailDeps(tables, clock);
    const drawdown = (level: number): NotifyEvent => ({
      kind: 'drawdown',
      eventId: `drawdown:${account.address}:${level}:fired:category-test`,
      account: account.address,
      at: NOW,
      notice: 'fired',
      level,
      levels: [5, 10],
      drawdownPct: level + 0.5,
      maxDrawdownPct: level + 0.5,
      dollarDrawdown: 1_000,
      peakAt: NOW - HOUR,
      peakEquity: 100_000,
      equityNow: 90_000,
      pnlNow: -1_000,
      asOf: NOW,
    });
    await throughQueue(deps, [drawdown(5)]);
    const [alert] = await mailTo(recipient);
    expect(header(alert!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const [token] = linkTokens(header(alert!, 'List-Unsubscribe') ?? '', '/unsubscribe');
    expect(testLinks().read('unsubscribe', token, NOW)).toMatchObject({ kind: 'valid', claims: { email: recipient, category: 'drawdown' } });
    expect(linkTokens(alert?.text ?? '', '/preferences')).toHaveLength(1);

    // The mail provider's one-click POST, through the real page handler.
    const page = preferencesPageOf({ repos: deps.repos, links: testLinks(), secret: LINK_SECRET, publicBaseUrl: PUBLIC_BASE_URL, now: clock.now });
    const answer = await page(oneClickEvent(`${PUBLIC_BASE_URL}/unsubscribe?token=${encodeURIComponent(token ?? '')}`));
    expect(answer.statusCode).toBe(200);
    expect(await deps.repos.suppressions.isSuppressed(recipient)).toBe(false);
    expect(await deps.repos.preferences.optOuts(recipient)).toEqual(['drawdown']);

    await throughQueue(deps, [drawdown(10), newDelegateEvent(account.address, `delegate:${account.address}:${DELEGATE}:1:new:category-test`)]);
    const mails = await mailTo(recipient);
    expect(mails.map((m) => header(m, 'X-Sentinel-Event-Id'))).toEqual([
      `drawdown:${account.address}:5:fired:category-test`,
      `delegate:${account.address}:${DELEGATE}:1:new:category-test`,
    ]);
  });
});

describe('notify: content of what is sent', () => {
  it('sends each unsuppressed recipient their own copy, with their unsubscribe link and a revoke link when the account has a signer', async () => {
    const [a, b, suppressed] = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('gone')];
    const account = await trackedAccount({ emails: [a, b, suppressed], signer: 'env:OWNER_KEY', label: 'bot-main' });
    const deps = mailDeps(tables, clock);
    await deps.repos.suppressions.suppress(suppressed, 'bounce');

    const { drained } = await throughQueue(deps, [newDelegateEvent(account.address)]);
    expect(drained.processed).toBe(1);
    expect(await mailTo(suppressed)).toEqual([]);

    const links = testLinks();
    for (const recipient of [a, b]) {
      const mails = await mailTo(recipient);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      const to = Array.isArray(mail.to) ? mail.to.flatMap((x) => x.value) : (mail.to?.value ?? []);
      expect(to.map((x) => x.address)).toEqual([recipient]);
      expect(mail.subject).toContain('arb-bot');
      expect(mail.subject).toContain('bot-main');
      expect(mail.text).toContain("IF THIS WASN'T YOU, REVOKE IT NOW");
      expect(mail.html).toContain(DELEGATE);
      expect(header(mail, 'X-Sentinel-Event-Id')).toBe(`delegate:${account.address}:${DELEGATE}:1:new`);
      // A security notice carries no List-Unsubscribe at all: only its footer links to the preferences page.
      expect(header(mail, 'List-Unsubscribe-Post')).toBeUndefined();
      expect(header(mail, 'List-Unsubscribe')).toBeUndefined();
      const [preferences] = linkTokens(mail.text ?? '', '/preferences');
      expect(links.read('preferences', preferences, NOW)).toMatchObject({ kind: 'valid', claims: { account: account.address, email: recipient } });
      // Stamped by the service's clock, not the wall clock.
      expect(mail.date?.getTime()).toBe(clock.now());

      const revokeTokens = linkTokens(`${mail.html || ''}\n${mail.text ?? ''}`, '/revoke');
      expect(revokeTokens).toHaveLength(1);
      expect(links.read('revoke', revokeTokens[0], NOW)).toMatchObject({ kind: 'valid', claims: { account: account.address, delegate: DELEGATE } });
    }
  });

  it('says one-click revocation is not configured, and carries no revoke link, when the account has no signer', async () => {
    const recipient = uniqueEmail('nosigner');
    const account = await trackedAccount({ emails: [recipient], signer: null });
    const event: NotifyEvent = {
      kind: 'expiry-warning',
      eventId: `delegate:${account.address}:${DELEGATE}:1:expiry:${NOW + 3 * DAY}:3d`,
      account: account.address,
      at: NOW,
      delegate: { address: DELEGATE, expiryMs: NOW + 3 * DAY, name: 'market-maker', isWebClient: true },
      expiryMs: NOW + 3 * DAY,
      stepDays: 3,
    };
    await throughQueue(mailDeps(tables, clock), [event]);
    const [mail] = await mailTo(recipient);
    expect(mail?.subject).toContain('market-maker');
    expect(mail?.text).toContain("One-click revocation isn't configured");
    expect(linkTokens(`${mail?.html || ''}\n${mail?.text ?? ''}`, '/revoke')).toEqual([]);
    expect(header(mail!, 'List-Unsubscribe')).toMatch(/\/unsubscribe\?token=/);
  });

  it('sends a drawdown alert with a chart of the stored curves and snooze links', async () => {
    const recipient = uniqueEmail('dd');
    const account = await trackedAccount({ emails: [recipient], drawdownThresholds: [5, 10, 20] });
    const deps = mailDeps(tables, clock);
    const points = Array.from({ length: 72 }, (_, i) => {
      const pnl = i < 48 ? i * 100 : 4_800 - (i - 48) * 600;
      return { ts: NOW - (71 - i) * HOUR, equity: String(100_000 + pnl), pnl: String(pnl) };
    });
    await deps.repos.curves.putPoints(account.address, account.interval, points, NOW + RETENTION_MS);
    const event: NotifyEvent = {
      kind: 'drawdown',
      eventId: `drawdown:${account.address}:10:fired:never`,
      account: account.address,
      at: NOW,
      notice: 'fired',
      level: 10,
      levels: [5, 10],
      drawdownPct: 10.5,
      maxDrawdownPct: 10.5,
      dollarDrawdown: 13_800,
      peakAt: NOW - 23 * HOUR,
      peakEquity: 104_700,
      equityNow: 90_900,
      pnlNow: -9_100,
      asOf: NOW,
    };
    await throughQueue(deps, [event]);
    const [mail] = await mailTo(recipient);
    expect(mail?.subject).toContain('Drawdown 10% reached');
    const image = mail?.attachments.find((x) => x.contentType === 'image/png');
    expect(image?.cid).toBe('drawdown-chart@sentinel');
    expect(image?.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(mail?.html).toContain('src="cid:drawdown-chart@sentinel"');
    const snoozes = linkTokens(mail?.text ?? '', '/snooze').map((t) => testLinks().read('snooze', t, NOW));
    expect(snoozes.map((s) => (s.kind === 'valid' ? s.claims.snoozeHours : null)).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual([24, 168]);
  });
  it('reports a revocation result, naming the kind of delegate from what was seen of it', async () => {
    const recipient = uniqueEmail('revoked');
    const account = await trackedAccount({ emails: [recipient], signer: 'env:OWNER_KEY' });
    const deps = mailDeps(tables, clock);
    await deps.repos.delegates.putMany([
      {
        address: account.address,
        delegate: DELEGATE,
        name: 'browser',
        expiryMs: null,
        isWebClient: true,
        firstSeenAt: NOW - DAY,
        lastSeenAt: NOW,
        warningsSent: [],
        expiredNoticeSent: false,
        removedAt: null,
        generation: 1,
      },
    ]);
    const event: NotifyEvent = {
      kind: 'revocation-result',
      eventId: `revocation:${account.address}:${DELEGATE}:7`,
      account: account.address,
      at: NOW - 30_000,
      delegate: { address: DELEGATE.toLowerCase(), name: 'browser' },
      outcome: 'rejected',
      message: 'nonce too low',
      nonce: 7,
      transactionSignature: `0x${'ab'.repeat(65)}`,
    };
    await throughQueue(deps, [event]);
    const [mail] = await mailTo(recipient);
    expect(mail?.subject).toContain('was refused by the chain');
    expect(mail?.text).toContain('nonce too low');
    expect(mail?.text?.toLowerCase()).toContain('web session');
  });
});

describe('notify: exactly once', () => {
  it('sends nothing more when the same SQS event is delivered again', async () => {
    const recipient = uniqueEmail('twice');
    const account = await trackedAccount({ emails: [recipient] });
    const deps = mailDeps(tables, clock);
    const { delivered } = await throughQueue(deps, [newDelegateEvent(account.address)]);
    expect(delivered).toHaveLength(1);
    // The same records again, as SQS does when a deletion was lost.
    const again = await createNotifyHandler(deps)(delivered[0]!.event, context());
    expect(again.batchItemFailures).toEqual([]);
    expect(await mailTo(recipient)).toHaveLength(1);
    const record = await deps.repos.deliveries.get(`delegate:${account.address}:${DELEGATE}:1:new#${recipient}`);
    expect(record).toMatchObject({ status: 'sent', kind: 'new-delegate', account: account.address });
  });

  it('sends one email when a producer queued the same event twice, and none on a rerun', async () => {
    const recipient = uniqueEmail('dup');
    const account = await trackedAccount({ emails: [recipient] });
    const deps = mailDeps(tables, clock);
    const event = newDelegateEvent(account.address);
    const first = await throughQueue(deps, [event, event]);
    expect(first.drained.processed).toBe(2);
    await throughQueue(deps, [event]);
    expect(await mailTo(recipient)).toHaveLength(1);
    expect(deps.counters.totals.get('NotificationsSent')).toBe(1);
    expect(deps.counters.totals.get('NotificationDuplicates')).toBe(2);
  });

  it('treats a delivery another worker holds as to be retried, and sends once that worker is gone', async () => {
    const recipient = uniqueEmail('held');
    const account = await trackedAccount({ emails: [recipient] });
    const deps = mailDeps(tables, clock);
    const event = newDelegateEvent(account.address);
    await deps.repos.deliveries.begin(`${event.eventId}#${recipient}`, { kind: 'new-delegate', account: account.address, recipients: [recipient] });

    const handler = createNotifyHandler(deps);
    const sqs: SQSEvent = { Records: [{ ...baseRecord, messageId: 'm-held', body: JSON.stringify(event) }] };
    expect((await handler(sqs, context())).batchItemFailures).toEqual([{ itemIdentifier: 'm-held' }]);
    expect(await mailTo(recipient)).toEqual([]);

    // The holder's lease (2 minutes) runs out: the redelivered message goes through.
    const later = testClock(NOW + 3 * 60_000);
    const response = await createNotifyHandler({ ...mailDeps(tables, later) })(sqs, context());
    expect(response.batchItemFailures).toEqual([]);
    expect(await mailTo(recipient)).toHaveLength(1);
  });
});

describe("notify: a broken channel's notice", () => {
  it("tells the account's unsuppressed recipients once each, the channel and the reason in plain words, and nothing more when redelivered", async () => {
    const [owner, risk, bounced] = [uniqueEmail('broken-owner'), uniqueEmail('broken-risk'), uniqueEmail('broken-bounced')];
    const account = await trackedAccount({ emails: [owner, risk, bounced], label: 'desk-b' });
    const deps = mailDeps(tables, clock);
    await deps.repos.suppressions.suppress(bounced, 'bounce');
    const since = NOW - 5_000;
    const notice = channelBrokenMessage(account.address, 'ops-hook', 'webhook', since, 'HTTP 410: Gone');
    const { delivered } = await throughQueue(deps, [notice]);
    expect(delivered.map((d) => d.response.batchItemFailures)).toEqual([[]]);
    for (const recipient of [owner, risk]) {
      const mails = await mailTo(recipient);
      expect(
        mails.map((m) => m.subject),
        recipient,
      ).toEqual(['Channel "ops-hook" stopped accepting alerts']);
      expect(mails[0]?.text).toContain(`The webhook channel "ops-hook" refused an alert about desk-b (${account.address}) for good: HTTP 410: Gone.`);
      expect(header(mails[0]!, 'X-Sentinel-Event-Id')).toBe(notice.eventId);
    }
    expect(await mailTo(bounced), 'suppressed').toEqual([]);
    expect(await deps.repos.deliveries.get(`${notice.eventId}#${owner}`)).toMatchObject({ status: 'sent', kind: 'channel-broken', account: account.address });

    // Redelivered (a lost deletion): nobody is told twice.
    expect((await createNotifyHandler(deps)(delivered[0]!.event, context())).batchItemFailures).toEqual([]);
    for (const recipient of [owner, risk]) expect(await mailTo(recipient), recipient).toHaveLength(1);
    expect(deps.counters.totals.get('NotificationDuplicates')).toBe(1);
  });

  it('is dropped as malformed, never half-read, when it names no channel type the registry knows', async () => {
    const deps = mailDeps(tables, clock);
    const body = {
      kind: 'channel-broken',
      eventId: 'channel-broken:x:1',
      account: testAddress(998, SALT),
      at: NOW,
      channel: { name: 'x', type: 'fax' },
      reason: 'r',
    };
    const response = await createNotifyHandler(deps)({ Records: [{ ...baseRecord, messageId: 'm-bad', body: JSON.stringify(body) }] }, context());
    expect(response.batchItemFailures, 'never retried').toEqual([]);
    expect(deps.counters.totals.get('NotificationsSent')).toBeUndefined();
    expect(deps.counters.totals.get('MalformedMessages')).toBe(1);
  });
});

describe('notify: failures', () => {
  const fake = fakeSesPerFile();

  it('records a permanent SES refusal as failed and does not retry it', async () => {
    const recipient = uniqueEmail('reject');
    const account = await trackedAccount({ emails: [recipient] });
    const deps = mailDeps(tables, clock, sesSender(fake.endpoint));
    const event = newDelegateEvent(account.address);
    const { drained, queue } = await throughQueue(deps, [event]);
    expect(drained).toMatchObject({ batches: 1, processed: 1, failedDeliveries: 0, deadLettered: 0 });
    expect(queue.deadLetters()).toEqual([]);
    expect(fake.attempts.get(recipient)).toBe(1);
    const record = await deps.repos.deliveries.get(`${event.eventId}#${recipient}`);
    expect(record?.status).toBe('failed');
    expect(record?.failureReason).toContain('MessageRejected');
    expect(deps.counters.totals.get('NotificationFailures')).toBe(1);
  });

  it('retries a throttled send through the queue, and dead-letters it when it never passes', async () => {
    const recipient = uniqueEmail('throttle');
    const account = await trackedAccount({ emails: [recipient] });
    const deps = mailDeps(tables, clock, sesSender(fake.endpoint));
    const { drained, queue } = await throughQueue(deps, [newDelegateEvent(account.address)], { maxReceiveCount: 3 });
    expect(drained).toMatchObject({ processed: 0, failedDeliveries: 3, deadLettered: 1 });
    expect(queue.deadLetters()).toHaveLength(1);
    expect(fake.attempts.get(recipient)).toBe(3);
    expect(fake.accepted).not.toContain(recipient);
  });

  it('serves the other recipients and records of a batch when one fails, and retries only what is left', async () => {
    const ok = uniqueEmail('fine');
    const throttled = uniqueEmail('throttle');
    const account = await trackedAccount({ emails: [ok, throttled] });
    const other = await trackedAccount({ emails: [uniqueEmail('other')] });
    const deps = mailDeps(tables, clock, sesSender(fake.endpoint));
    const handler = createNotifyHandler(deps);
    const records = [
      { ...baseRecord, messageId: 'm-1', body: JSON.stringify(newDelegateEvent(account.address)) },
      { ...baseRecord, messageId: 'm-2', body: '{"kind":"drawdown","eventId":"x"' },
      { ...baseRecord, messageId: 'm-3', body: JSON.stringify({ ...newDelegateEvent(other.address), account: 'not-an-address' }) },
      { ...baseRecord, messageId: 'm-4', body: JSON.stringify(newDelegateEvent(other.address)) },
    ];
    const response = await handler({ Records: records }, context());
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(deps.counters.totals.get('MalformedMessages')).toBe(2);
    expect(fake.accepted.filter((r) => r === ok || r === other.emails[0])).toEqual([ok, other.emails[0]]);

    // Redelivered: the recipient already served gets nothing more.
    const again = await handler({ Records: [records[0]!] }, context());
    expect(again.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(fake.accepted.filter((r) => r === ok)).toHaveLength(1);
    expect(fake.attempts.get(throttled)).toBe(2);
  });

  it('skips an account that is no longer tracked', async () => {
    const deps = mailDeps(tables, clock, sesSender(fake.endpoint));
    const response = await createNotifyHandler(deps)(
      { Records: [{ ...baseRecord, messageId: 'm-gone', body: JSON.stringify(newDelegateEvent(testAddress(999, SALT))) }] },
      context(),
    );
    expect(response.batchItemFailures).toEqual([]);
    expect(deps.counters.totals.get('NotificationsSkipped')).toBe(1);
  });
});

const baseRecord = {
  receiptHandle: 'rh',
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(NOW), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(NOW) },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:notify-test',
  awsRegion: 'us-east-1',
};
