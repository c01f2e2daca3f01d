import { SESClient } from '@aws-sdk/client-ses';
import { describe, expect, inject, it } from 'vitest';
import { deliverToRecipient, deliveryId, type RecipientEmail } from '../../../../functions/services/delivery/mailDelivery';
import { SesSender } from '../../../../functions/mail/send/sesSender';
import { silentLog, type Log } from '../../../../functions/shared/observability';
import { DeliveryRepository } from '../../../../functions/store/deliveryRepository';
import { AccountHistoryRepository } from '../../../../functions/store/accountHistoryRepository';
import { EmailRenderError } from '../../../../functions/mail/errors';
import { createDocumentClient, createDynamoDbClient } from '../../../../functions/store/documentClient';
import { throttleDynamo } from '../../../../bench/chaosFaults';
import { sesStore } from '../../../support/sesStore';
import { testTables } from '../../../support/testTables';

const T0 = 3_100_000_000_000;
const LEASE = 120_000;

describe('deliverToRecipient: a stalled attempt past its lease', () => {
  const tables = testTables();
  const sender = new SesSender(
    new SESClient({ endpoint: inject('sesEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );

  it('sends nothing once its lease ran out, and the attempt that took the delivery over sends it once', async () => {
    let now = T0;
    const deliveries = new DeliveryRepository(tables.client, tables.prefix, { now: () => now, leaseMs: LEASE });
    const warnings: string[] = [];
    const log: Log = { ...silentLog, warn: (message) => void warnings.push(message) };
    const deps = {
      repos: { deliveries, history: new AccountHistoryRepository(tables.client, tables.prefix) },
      sender,
      mailFrom: 'alerts@sentinel.example.com',
      log,
    };
    const recipient = `stalled-${Date.now()}@example.com`;
    const email = (compose: RecipientEmail['compose']): RecipientEmail => ({
      eventId: 'report:0xstalled:2025-01-15',
      kind: 'daily-report',
      account: '0xstalled',
      recipient,
      sentAt: now,
      compose,
    });
    const content = { rendered: { subject: 'Daily report', html: '<p>figures</p>', text: 'figures' }, unsubscribeUrl: 'https://links.example.com/u' };
    let resume: () => void = () => undefined;
    // The first attempt claims, then stalls (13 minutes by the clock) before its send.
    const stalled = deliverToRecipient(
      deps,
      email(async () => {
        await new Promise<void>((r) => (resume = r));
        return content;
      }),
    );
    await expect
      .poll(async () => (await deliveries.get(deliveryId('report:0xstalled:2025-01-15', recipient)))?.status, { timeout: 30_000 })
      .toBe('in-progress');
    now = T0 + 12 * 60_000;
    // Redelivered after the visibility timeout, the job takes the delivery over and sends it.
    expect(
      await deliverToRecipient(
        deps,
        email(() => content),
      ),
    ).toMatchObject({ kind: 'sent' });
    now = T0 + 13 * 60_000;
    resume();
    expect(await stalled, 'the stalled attempt wakes past its lease and sends nothing').toEqual({ kind: 'in-progress' });
    expect((await sesStore({ to: recipient })).filter((m) => m.subject === 'Daily report')).toHaveLength(1);
    expect(await deliveries.get(deliveryId('report:0xstalled:2025-01-15', recipient))).toMatchObject({ status: 'sent', attempts: 2 });
    expect(warnings).toEqual(['delivery lease ran out before the send; left to the attempt that took it over']);
  });

  it('records a send SES accepted even when DynamoDB throttles that write past the SDK retries, so no second copy follows', async () => {
    const dynamo = createDynamoDbClient({ endpoint: inject('dynamoEndpoint') });
    // The first four writes that mark a delivery sent are throttled before reaching DynamoDB Local (the SDK makes 3 attempts).
    let marks = 0;
    const throttled = throttleDynamo(
      dynamo,
      (command, input) => command === 'UpdateItemCommand' && String(input['UpdateExpression']).startsWith('SET #status = :sent') && ++marks <= 4,
    );
    const deliveries = new DeliveryRepository(createDocumentClient(dynamo), tables.prefix, { now: () => T0, leaseMs: LEASE });
    const deps = {
      repos: { deliveries, history: new AccountHistoryRepository(tables.client, tables.prefix) },
      sender,
      mailFrom: 'alerts@sentinel.example.com',
      log: silentLog,
    };
    const recipient = `throttled-${Date.now()}@example.com`;
    const email: RecipientEmail = {
      eventId: 'drawdown:0xthrottled:10:fired:never',
      kind: 'drawdown-alert',
      account: '0xthrottled',
      recipient,
      sentAt: T0,
      compose: () => ({ rendered: { subject: 'Drawdown 10%', html: '<p>down</p>', text: 'down' }, unsubscribeUrl: 'https://links.example.com/u' }),
    };
    expect(await deliverToRecipient(deps, email)).toMatchObject({ kind: 'sent' });
    expect(throttled()).toBe(4);
    expect(await deliveries.get(deliveryId(email.eventId, recipient))).toMatchObject({ status: 'sent' });
    expect(await deliverToRecipient(deps, email), 'a redelivery finds it sent').toEqual({ kind: 'duplicate' });
    expect((await sesStore({ to: recipient })).filter((m) => m.subject === 'Drawdown 10%')).toHaveLength(1);
    dynamo.destroy();
  });

  it("records each copy's outcome in its account's delivery history (to whom, what, sent or failed and why in plain words), a duplicate once", async () => {
    const deliveries = new DeliveryRepository(tables.client, tables.prefix, { leaseMs: LEASE });
    const history = new AccountHistoryRepository(tables.client, tables.prefix);
    const deps = { repos: { deliveries, history }, sender, mailFrom: 'alerts@sentinel.example.com', log: silentLog };
    const account = `0x${Date.now().toString(16).padStart(40, '0')}`;
    const at = Date.now();
    const recipient = `History-${at}@Example.com`;
    const base = { kind: 'drawdown-alert', account, recipient, sentAt: at } as const;
    const content = { rendered: { subject: 'Drawdown 5%', html: '<p>down</p>', text: 'down' }, unsubscribeUrl: 'https://links.example.com/u' };
    expect(await deliverToRecipient(deps, { ...base, eventId: 'drawdown:h:5', compose: () => content })).toMatchObject({ kind: 'sent' });
    expect(await deliverToRecipient(deps, { ...base, eventId: 'drawdown:h:5', compose: () => content })).toEqual({ kind: 'duplicate' });
    const broken = () => {
      throw new EmailRenderError('template drawdown-alert: missing field https://secret.example/hook?token=abc');
    };
    expect(await deliverToRecipient(deps, { ...base, eventId: 'drawdown:h:10', sentAt: at + 1, compose: broken })).toMatchObject({ kind: 'failed' });
    // A digest names no account: nothing recorded anywhere.
    expect(await deliverToRecipient(deps, { ...base, account: 'digest of 2 accounts', eventId: 'digest:h', compose: () => content })).toMatchObject({
      kind: 'sent',
    });

    const { entries } = await history.deliveries(account, 10, null);
    expect(entries).toEqual([
      {
        via: 'email',
        to: recipient.toLowerCase(),
        what: 'drawdown-alert',
        outcome: 'failed',
        reason: 'the email could not be built',
        at: at + 1,
        eventId: 'drawdown:h:10',
      },
      { via: 'email', to: recipient.toLowerCase(), what: 'drawdown-alert', outcome: 'sent', reason: null, at, eventId: 'drawdown:h:5' },
    ]);
    expect(JSON.stringify(entries)).not.toContain('secret.example');
  });
  it('releases the record and rethrows a surprise while composing, writing no history entry, so a retry sends the email once', async () => {
    const deliveries = new DeliveryRepository(tables.client, tables.prefix, { leaseMs: LEASE });
    const history = new AccountHistoryRepository(tables.client, tables.prefix);
    const deps = { repos: { deliveries, history }, sender, mailFrom: 'alerts@sentinel.example.com', log: silentLog };
    const account = `0x${(Date.now() + 7).toString(16).padStart(40, '0')}`;
    const at = Date.now();
    const recipient = `surprise-${at}@example.com`;
    const base = { eventId: 'drawdown:surprise:5', kind: 'drawdown-alert', account, recipient, sentAt: at } as const;
    const surprise = new TypeError('a bug in a presenter');
    const buggy = () => {
      throw surprise;
    };
    await expect(deliverToRecipient(deps, { ...base, compose: buggy })).rejects.toBe(surprise);
    expect(await deliveries.get(deliveryId(base.eventId, recipient))).toMatchObject({ status: 'failed' });
    expect((await history.deliveries(account, 10, null)).entries).toEqual([]);

    const content = { rendered: { subject: 'Drawdown 5% again', html: '<p>down</p>', text: 'down' }, unsubscribeUrl: 'https://links.example.com/u' };
    expect(await deliverToRecipient(deps, { ...base, compose: () => content })).toMatchObject({ kind: 'sent' });
    expect((await sesStore({ to: recipient })).filter((m) => m.subject === 'Drawdown 5% again')).toHaveLength(1);
    expect((await history.deliveries(account, 10, null)).entries).toMatchObject([{ outcome: 'sent', eventId: base.eventId }]);
  });
});
