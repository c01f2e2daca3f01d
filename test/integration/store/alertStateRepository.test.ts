import { describe, expect, it } from 'vitest';
import { AlertStateRepository, CHANNEL_CONTROLS_RULE, controlsKey, RECIPIENT_SNOOZES_RULE, SNOOZE_RULE } from '../../../functions/store/alertStateRepository';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

describe('AlertStateRepository', () => {
  const tables = testTables();
  const repo = () => new AlertStateRepository(tables.client, tables.prefix);

  it('writes with optimistic concurrency: a stale version is a conflict', async () => {
    const account = testAddress(1);
    expect(await repo().get(account, 'drawdown:10')).toBeNull();
    expect(await repo().compareAndSet(account, 'drawdown:10', null, { status: 'breached' })).toEqual({ kind: 'written', version: 1 });
    expect(await repo().compareAndSet(account, 'drawdown:10', null, { status: 'armed' })).toEqual({ kind: 'conflict' });
    expect(await repo().compareAndSet(account, 'drawdown:10', 1, { status: 'armed', lastValue: 3.5 })).toEqual({ kind: 'written', version: 2 });
    expect(await repo().compareAndSet(account, 'drawdown:10', 1, { status: 'breached' })).toEqual({ kind: 'conflict' });
    expect(await repo().get(account, 'drawdown:10')).toEqual({ rule: 'drawdown:10', state: { status: 'armed', lastValue: 3.5 }, version: 2 });
  });

  it('lets exactly one of several concurrent evaluations write', async () => {
    const account = testAddress(2);
    await repo().compareAndSet(account, 'drawdown:5', null, { n: 0 });
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => repo().compareAndSet(account, 'drawdown:5', 1, { n })));
    expect(outcomes.filter((o) => o.kind === 'written')).toHaveLength(1);
    expect((await repo().get(account, 'drawdown:5'))?.version).toBe(2);
  });

  it('stores the snooze as a rule and lists every rule of an account', async () => {
    const account = testAddress(3);
    expect(await repo().snoozedUntil(account)).toBeNull();
    await repo().snooze(account, 5_000);
    await repo().snooze(account, 9_000);
    expect(await repo().snoozedUntil(account)).toBe(9_000);
    await repo().compareAndSet(account, 'drawdown:20', null, { status: 'armed' });
    const rules = (await repo().listForAccount(account)).map((s) => [s.rule, s.version]);
    expect(rules).toEqual([
      ['drawdown:20', 1],
      [SNOOZE_RULE, 2],
    ]);
    expect(await repo().listForAccount(testAddress(4))).toEqual([]);
  });

  it('keeps link-set controls (recipient snoozes, channel controls) under controls#<account>, apart from the alert states', async () => {
    const account = testAddress(5);
    await repo().snoozeRecipient(account, 'a@example.com', 50_000, 1_000);
    await repo().snoozeChannel(account, 'desk', 60_000, 1_000);
    await repo().setChannelMutes(account, 'desk', ['reports']);
    expect(await repo().listForAccount(account)).toEqual([]);
    expect((await repo().get(controlsKey(account), RECIPIENT_SNOOZES_RULE))?.state).toEqual({ recipients: { 'a@example.com': 50_000 } });
    expect(await repo().channelControls(account)).toEqual({ snoozes: { desk: 60_000 }, mutes: { desk: ['reports'] } });
    expect((await repo().listWithControls(account)).map((r) => r.rule).sort()).toEqual([CHANNEL_CONTROLS_RULE, RECIPIENT_SNOOZES_RULE]);
  });

  it('reads controls stored under the account by an earlier version until the first write moves them, losing nothing', async () => {
    const account = testAddress(6);
    // As an earlier version wrote them: under the account itself.
    await repo().compareAndSet(account, RECIPIENT_SNOOZES_RULE, null, { recipients: { 'old@example.com': 90_000 } });
    await repo().compareAndSet(account, CHANNEL_CONTROLS_RULE, null, { snoozes: {}, mutes: { ops: ['expiry'] } });
    expect(await repo().recipientSnoozes(account)).toEqual({ 'old@example.com': 90_000 });
    expect(await repo().channelControls(account)).toEqual({ snoozes: {}, mutes: { ops: ['expiry'] } });
    expect((await repo().listWithControls(account)).map((r) => r.rule).sort()).toEqual([CHANNEL_CONTROLS_RULE, RECIPIENT_SNOOZES_RULE]);

    await repo().snoozeRecipient(account, 'new@example.com', 70_000, 1_000);
    await repo().snoozeChannel(account, 'desk', 80_000, 1_000);
    expect(await repo().recipientSnoozes(account)).toEqual({ 'old@example.com': 90_000, 'new@example.com': 70_000 });
    expect(await repo().channelControls(account)).toEqual({ snoozes: { desk: 80_000 }, mutes: { ops: ['expiry'] } });
    // Moved: the new items hold everything; lifting a snooze there is what counts from now on.
    expect(await repo().liftRecipientSnoozes(account, 'old@example.com', 2_000)).toEqual(['old@example.com']);
    expect(await repo().recipientSnoozes(account)).toEqual({ 'new@example.com': 70_000 });
    const listed = await repo().listWithControls(account);
    expect(listed.filter((r) => r.rule === RECIPIENT_SNOOZES_RULE)).toEqual([
      { rule: RECIPIENT_SNOOZES_RULE, state: { recipients: { 'new@example.com': 70_000 } }, version: 2 },
    ]);
  });
});
