import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../../functions/channels/webhook/webhookSignature';
import type { NotifyQueueEvent } from '../../../../functions/messages/notifyMessage';
import type { MessageQueue } from '../../../../functions/queue/messageQueue';
import { testChannel } from '../../../../functions/services/channels/testChannel';
import { ChannelsRepository } from '../../../../functions/store/channelsRepository';
import { channelWorld } from '../../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../../support/channels/noticeFixtures';
import { sesSender } from '../../../support/delivery/mailHarness';
import { sesStore } from '../../../support/sesStore';
import { accountRecord } from '../../../support/store/accountFixture';

const START = Date.UTC(2030, 7, 1, 9);
const run = randomUUID().slice(0, 8);
const OWNER = `broken-owner+${run}@example.com`;

/** A notify queue whose first `failures` sends fail as SQS does after its own retries (every entry refused, not the sender's fault). */
function failingFirst(failures: number): (queue: MessageQueue<NotifyQueueEvent>) => MessageQueue<NotifyQueueEvent> & { calls: () => number } {
  return (queue) => {
    let calls = 0;
    return {
      calls: () => calls,
      send: (entries) => {
        calls++;
        if (calls > failures) return queue.send(entries);
        return Promise.resolve({
          sent: [],
          failed: entries.map((e) => ({ id: e.id, code: 'ServiceUnavailable', message: 'the queue did not answer', senderFault: false })),
        });
      },
    };
  };
}

/**
 * The notice of a channel marked broken is never lost: the broken state keeps whether its notice was
 * queued, and whatever job meets the channel broken with its notice not yet queued queues it again
 * (same event id: notify mails each recipient once). DynamoDB Local, local SES, the channel worker
 * and the notify handler on in-process queues, the local receivers, a simulated clock.
 */
describe('the broken-channel notice (outbox in the broken state)', () => {
  const world = channelWorld({ start: START, env: { HOOK: newWebhookSecret() } });
  const { repos, to } = world;
  const sender = sesSender(undefined, 3);

  beforeAll(async () => {
    expect(await repos().accounts.create(accountRecord({ address: ACCOUNT as never, emails: [OWNER] }))).toEqual({ kind: 'created' });
  });

  const told = async (name: string) => (await sesStore({ to: OWNER })).filter((m) => m.subject.includes(`"${name}" stopped accepting alerts`));
  const job = (name: string, suffix: string) => world.job(name, noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:${name}-${suffix}` }));
  const refusing = async (name: string) => {
    const path = `${name}-${run}`;
    await world.channel({ name, type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(path) });
    world.receivers.script(path, [{ status: 410, body: 'Gone' }]);
    return path;
  };

  it('a notify queue failing when the channel is marked broken: the redelivered job queues the notice, the owner is emailed once', async () => {
    const path = await refusing('gone-once');
    const notifyQueue = failingFirst(1);
    let wrapped: ReturnType<ReturnType<typeof failingFirst>> | undefined;
    const queue = world.worker({ sender, notifyQueue: (q) => (wrapped = notifyQueue(q)) });
    await queue.send([{ id: 'j', body: job('gone-once', 'a') }]);
    await world.drain(queue);

    expect(wrapped?.calls(), 'the failed send was tried again').toBe(2);
    expect(to(path), 'the destination is not called again').toHaveLength(1);
    const state = (await repos().channels.get('gone-once'))?.state;
    expect(state).toMatchObject({
      kind: 'broken',
      reason: expect.stringContaining('410') as unknown,
      notice: { account: ACCOUNT, queuedAt: expect.any(Number) as unknown },
    });
    expect(await told('gone-once')).toHaveLength(1);
    expect(queue.counts().deadLettered).toBe(0);
  });

  it('the "queued" write failing after the notice went: the redelivered job queues it again, the owner is still emailed once', async () => {
    await refusing('gone-twice');
    const base = repos();
    let refusals = 0;
    class QueuedWriteFailingOnce extends ChannelsRepository {
      override async markNoticeQueued(name: string, since: number, at: number): Promise<void> {
        if (refusals++ === 0) throw new Error('DynamoDB did not answer');
        return super.markNoticeQueued(name, since, at);
      }
    }
    const channels = new QueuedWriteFailingOnce(world.tables.client, world.tables.prefix, { now: world.now });
    const queue = world.worker({ sender, repos: { ...base, channels } });
    await queue.send([{ id: 'j', body: job('gone-twice', 'a') }]);
    await world.drain(queue);

    expect(refusals, 'the write was tried again by the redelivered job').toBe(2);
    expect((await repos().channels.get('gone-twice'))?.state).toMatchObject({ kind: 'broken', notice: { queuedAt: expect.any(Number) as unknown } });
    expect(await told('gone-twice')).toHaveLength(1);
  });

  it('the next job to a channel left broken with its notice not queued queues it; once queued, later jobs tell nobody again', async () => {
    await world.channel({ name: 'left-broken', type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(`left-broken-${run}`) });
    const since = world.now() - 60_000;
    // As a worker that crashed between the mark and the send leaves it.
    await repos().channels.setState('left-broken', { kind: 'broken', reason: 'HTTP 410: Gone', since, notice: { account: ACCOUNT, queuedAt: null } });
    const counted = failingFirst(0);
    let notifyQueue: ReturnType<ReturnType<typeof failingFirst>> | undefined;
    const queue = world.worker({ sender, notifyQueue: (q) => (notifyQueue = counted(q)) });
    await queue.send([{ id: 'j', body: job('left-broken', 'a') }]);
    await world.drain(queue);
    expect(await told('left-broken')).toHaveLength(1);
    expect((await repos().channels.get('left-broken'))?.state).toMatchObject({ kind: 'broken', since, notice: { queuedAt: expect.any(Number) as unknown } });

    expect(notifyQueue?.calls(), 'the notice was queued once').toBe(1);

    await queue.send([{ id: 'k', body: job('left-broken', 'b') }]);
    await world.drain(queue);
    expect(notifyQueue?.calls(), 'a notice once queued is not queued again').toBe(1);
    expect(await told('left-broken')).toHaveLength(1);
    expect(to(`left-broken-${run}`), 'a broken channel is not called').toHaveLength(0);
  });

  it('a channel broken before the notice was kept in its state (no `notice`) counts as told: nobody is emailed', async () => {
    await world.channel({ name: 'old-broken', type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(`old-broken-${run}`) });
    await repos().channels.setState('old-broken', { kind: 'broken', reason: 'HTTP 410: Gone', since: world.now() - 60_000 });
    const queue = world.worker({ sender });
    await queue.send([{ id: 'j', body: job('old-broken', 'a') }]);
    await world.drain(queue);
    expect(await told('old-broken')).toHaveLength(0);
    expect((await repos().channels.get('old-broken'))?.state).toEqual({ kind: 'broken', reason: 'HTTP 410: Gone', since: expect.any(Number) as unknown });
  });

  it('recording a notice queued changes nothing once the channel was repaired, or broken again since', async () => {
    await world.channel({ name: 'repaired', type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(`repaired-${run}`) });
    const channels = repos().channels;
    const since = world.now();
    expect(await channels.markBroken('repaired', 'HTTP 410: Gone', since, ACCOUNT)).toEqual({ kind: 'marked' });
    await channels.setState('repaired', { kind: 'ok' });
    await channels.markNoticeQueued('repaired', since, since + 1);
    expect((await channels.get('repaired'))?.state).toEqual({ kind: 'ok' });

    expect(await channels.markBroken('repaired', 'HTTP 404', since + 10, ACCOUNT)).toEqual({ kind: 'marked' });
    await channels.markNoticeQueued('repaired', since, since + 11);
    expect((await channels.get('repaired'))?.state).toEqual({
      kind: 'broken',
      reason: 'HTTP 404',
      since: since + 10,
      notice: { account: ACCOUNT, queuedAt: null },
    });
    await channels.markNoticeQueued('repaired', since + 10, since + 12);
    expect((await channels.get('repaired'))?.state).toMatchObject({ notice: { queuedAt: since + 12 } });
  });
  it('a channel marked broken is not written back to ok by an update read before the mark (it conflicts)', async () => {
    await world.channel({ name: 'edited', type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(`edited-${run}`) });
    const channels = repos().channels;
    const before = await channels.get('edited');
    if (!before) throw new Error('no channel');
    expect(await channels.markBroken('edited', 'HTTP 410: Gone', world.now(), ACCOUNT)).toEqual({ kind: 'marked' });
    expect(await channels.replace(before, { ...before, categories: ['security'], updatedAt: before.updatedAt + 1 })).toEqual({ kind: 'conflict' });
    expect((await channels.get('edited'))?.state).toMatchObject({ kind: 'broken', notice: { account: ACCOUNT, queuedAt: null } });
  });

  it('a break owing a notice to something not an address is refused before it is written (the channel stays readable)', async () => {
    await world.channel({ name: 'guarded', type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(`guarded-${run}`) });
    const channels = repos().channels;
    await expect(channels.markBroken('guarded', 'HTTP 410: Gone', world.now(), 'not-an-address')).rejects.toThrow(/channels\.markBroken.*account/);
    expect((await channels.get('guarded'))?.state).toEqual({ kind: 'ok' });
    expect((await channels.list()).some((c) => c.name === 'guarded')).toBe(true);
  });

  it('`channels test` refused on a channel broken meanwhile keeps the break and the notice it owes: the next job tells the owner once', async () => {
    const path = await refusing('retested');
    // Read while the channel was still ok; a worker marks it broken (its notice not queued) while the test runs.
    const channel = await repos().channels.get('retested');
    if (!channel) throw new Error('no channel');
    const since = world.now() - 60_000;
    expect(await repos().channels.markBroken('retested', 'HTTP 410: Gone', since, ACCOUNT)).toEqual({ kind: 'marked' });
    const owed = (await repos().channels.get('retested'))?.state;
    expect(owed).toMatchObject({ kind: 'broken', since, notice: { account: ACCOUNT, queuedAt: null } });
    const result = await testChannel({ channels: repos().channels, sender: world.senderDeps(), now: world.now, sleep: () => Promise.resolve() }, channel);
    expect(result.outcome.kind).toBe('refused');
    expect(to(path), 'the test reached the destination').toHaveLength(1);
    expect((await repos().channels.get('retested'))?.state).toEqual(owed);

    const queue = world.worker({ sender });
    await queue.send([{ id: 'j', body: job('retested', 'a') }]);
    await world.drain(queue);
    expect(await told('retested')).toHaveLength(1);
  });
  it('a backlog summary job for a channel left broken with its notice not queued queues it too, once', async () => {
    await world.channel({ name: 'backlogged', type: 'webhook', secret: 'env:HOOK', url: world.receivers.webhookUrl(`backlogged-${run}`) });
    const since = world.now() - 60_000;
    await repos().channels.setState('backlogged', { kind: 'broken', reason: 'HTTP 410: Gone', since, notice: { account: ACCOUNT, queuedAt: null } });
    const queue = world.worker({ sender });
    await queue.send([{ id: 'b', body: { channel: 'backlogged', backlog: true, attempt: 0 } }]);
    await world.drain(queue);
    expect(await told('backlogged')).toHaveLength(1);
    expect((await repos().channels.get('backlogged'))?.state).toMatchObject({ kind: 'broken', since, notice: { queuedAt: expect.any(Number) as unknown } });
    expect(to(`backlogged-${run}`), 'a broken channel is not called').toHaveLength(0);
  });
});
