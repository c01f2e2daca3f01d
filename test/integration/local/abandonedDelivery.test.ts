import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { newTrackedAccount } from '../../../functions/domain/trackedAccount';
import { deliveryId } from '../../../functions/services/delivery/mailDelivery';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createRepositories } from '../../../functions/store/repositories';
import { createLocalSystem, type LocalSystem } from '../../../local/localSystem';
import { startSimulator, type RunningSimulator } from '../../../local/sim/http/server';
import { drawdownEvent } from '../../support/channels/noticeFixtures';
import { sesStore } from '../../support/sesStore';
import { testTables } from '../../support/testTables';
import { localSystemSettings } from '../../support/localSettings';

const tables = testTables();
const LEASE_MS = 3_000;
let sim: RunningSimulator;
let system: LocalSystem;

beforeAll(async () => {
  sim = await startSimulator({ seed: 31 });
  const settings = localSystemSettings({ prefix: tables.prefix, sim });
  system = await createLocalSystem({
    settings,
    // A short claim, so the test need not wait the default 2 minutes.
    repos: createRepositories(tables.client, tables.prefix, { leaseMs: LEASE_MS }),
    log: silentLog,
    counters: memoryCounters(),
    now: Date.now,
    // The local queues retry a failed notification soon (here sooner still): five receives take far less than the claim.
    visibilityTimeoutMs: 500,
  });
});
afterAll(async () => {
  await sim?.close();
});

/**
 * A process stopped in the middle of sending an alert email leaves its delivery `in-progress`;
 * the notification, redelivered by the (persistent) local queue, sends the email once that claim
 * runs out, and only then: the local notify queue, DynamoDB Local and local SES.
 */
describe('an email delivery abandoned in-progress', () => {
  it('is taken over once its claim runs out: one email, the record sent, nothing dead-lettered', async () => {
    const recipient = `abandoned+${randomUUID().slice(0, 8)}@example.com`;
    await system.repos.accounts.create(
      newTrackedAccount(accountSettingsSchema.parse({ address: drawdownEvent.account, emails: [recipient], label: 'abandoned' }), Date.now()),
    );
    const event = { ...drawdownEvent, eventId: `drawdown:${drawdownEvent.account}:20:fired:${randomUUID()}`, at: Date.now(), asOf: Date.now() };
    const id = deliveryId(event.eventId, recipient);
    // What a killed process leaves: the claim taken, the email never recorded as sent.
    expect(await system.repos.deliveries.begin(id, { kind: 'drawdown-alert', account: event.account, recipients: [recipient] })).toMatchObject({ kind: 'new' });

    const claimed = await system.repos.deliveries.get(id);
    await system.pipeline.notifyQueue.send([{ id: 'redelivered', body: event }]);
    await system.pipeline.notifyQueue.drain();

    expect(system.pipeline.notifyQueue.deadLetters()).toEqual([]);
    const mails = await sesStore({ to: recipient });
    expect(mails).toHaveLength(1);
    const sent = await system.repos.deliveries.get(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
    expect(sent?.startedAt, 'taken over only once the claim ran out').toBeGreaterThanOrEqual((claimed?.startedAt ?? Infinity) + LEASE_MS);
  });
});
