import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { TrackedAccount } from '../../../../functions/domain/account';
import type { LevelState } from '../../../../functions/domain/alertMachine';
import { DRAWDOWN_RULE } from '../../../../functions/domain/drawdownState';
import type { OnboardingCheck } from '../../../../functions/messages/notifyMessage';
import type { NotificationOutcome } from '../../../../functions/services/notify/deliverNotification';
import { deliverOnboardingNotice, type OnboardingNoticeDeps } from '../../../../functions/services/notify/deliverOnboardingNotice';
import { createDocumentClient, createDynamoDbClient } from '../../../../functions/store/documentClient';
import { createRepositories, type Repositories } from '../../../../functions/store/repositories';
import { tableName } from '../../../../functions/store/tableDefinitions';
import { meterReads, type ReadMeter, type ReadReading } from '../../../../bench/readMeter';
import { prng } from '../../../../bench/prng';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { mailDeps, mailTo, RETENTION_MS, testClock, uniqueEmail } from '../../../support/delivery/mailHarness';
import { testTables } from '../../../support/testTables';

const NOW = Date.parse('2025-05-06T09:00:00Z');
const SALT = 0x0b0a;
/** Accounts per imported batch. */
const N = 50;

const tables = testTables();
const clock = testClock(NOW);
let meter: ReadMeter;
let repos: Repositories;
let deps: OnboardingNoticeDeps;

beforeAll(() => {
  // A client of its own, metered: every read the checks make is counted.
  const raw = createDynamoDbClient({ endpoint: inject('dynamoEndpoint') });
  meter = meterReads(raw);
  repos = createRepositories(createDocumentClient(raw), tables.prefix, { now: clock.now, retentionMs: RETENTION_MS });
  deps = { ...mailDeps(tables, clock), repos };
});

const breached = (value: number): LevelState => ({ status: 'breached', lastValue: value, lastSentAt: null, breachedAt: NOW, baseline: true });
const armed = (value: number): LevelState => ({ status: 'armed', lastValue: value, lastSentAt: null, breachedAt: null });

/** An imported batch of `N` accounts not yet polled, all mailing `recipient`; every fifth already past 5% and 10%. */
async function importBatch(batch: number, salt: number, recipient: string): Promise<TrackedAccount[]> {
  const accounts = Array.from({ length: N }, (_, i) =>
    accountRecord({ address: testAddress(i, salt), label: `acct-${i}`, emails: [recipient], createdAt: batch, polled: false, nextDueAt: batch }),
  );
  const outcome = await repos.accounts.importMany(accounts);
  expect(outcome.created).toHaveLength(N);
  return accounts;
}

/** What collect records at the account's first poll: `polled`, and its drawdown levels (breached before tracking or not). */
async function firstPoll(account: TrackedAccount, index: number): Promise<void> {
  const levels = index % 5 === 0 ? { 5: breached(12), 10: breached(12), 20: armed(12) } : { 5: armed(1), 10: armed(1), 20: armed(1) };
  expect((await repos.alerts.compareAndSet(account.address, DRAWDOWN_RULE, null, { levels })).kind).toBe('written');
  expect(
    (await repos.accounts.recordHealth(account.address, { status: 'ok', statusReason: null, consecutiveErrors: 0, consecutiveEmptyPolls: 0, polled: true }))
      .kind,
  ).toBe('recorded');
}

/** The check the account's first poll queues (as `queueOnboardingCheck` words it). */
const checkOf = (account: TrackedAccount): OnboardingCheck => ({
  kind: 'onboarding-check',
  eventId: `onboarding:${account.createdAt}:polled:${account.address.toLowerCase()}`,
  account: account.address,
  at: NOW,
  batch: account.createdAt,
});

/** Runs one check with the meter on; returns its outcome and what it read. */
async function metered(check: OnboardingCheck): Promise<{ outcome: NotificationOutcome; reads: ReadReading }> {
  meter.reset();
  const outcome = await deliverOnboardingNotice(deps, check);
  return { outcome, reads: meter.read() };
}

/** Items read by kind (`Query accounts/byBatch` …), table names without the file's prefix, summed over the checks. */
function itemsByKind(readings: readonly ReadReading[]): Map<string, number> {
  const sum = new Map<string, number>();
  for (const reading of readings)
    for (const [kind, tally] of reading.byKind) {
      const key = kind.replace(tables.prefix, '');
      sum.set(key, (sum.get(key) ?? 0) + tally.items);
    }
  return sum;
}

const total = (readings: readonly ReadReading[]) => readings.reduce((n, r) => n + r.total.items, 0);

/** What no check may do: read every tracked account (a Scan, or the list of every account through `byNextReport`). */
function expectNoFullScan(readings: readonly ReadReading[]): void {
  for (const reading of readings)
    for (const kind of reading.byKind.keys()) {
      expect(kind).not.toMatch(/^Scan /);
      expect(kind).not.toContain(`${tableName(tables.prefix, 'accounts')}/byNextReport`);
    }
}

describe('the onboarding checks of an imported batch read O(batch) items in all', () => {
  it('checks run as the first polls end (in random order): one notice, the batch read once, bounded reads per check', async () => {
    const recipient = uniqueEmail('onboard-reads');
    const batch = NOW - 3_600_000;
    const accounts = await importBatch(batch, SALT, recipient);
    const random = prng(7);
    const order = accounts.map((account, index) => ({ account, index, key: random() })).sort((a, b) => a.key - b.key);

    const runs: { outcome: NotificationOutcome; reads: ReadReading }[] = [];
    for (const { account, index } of order) {
      await firstPoll(account, index);
      runs.push(await metered(checkOf(account)));
    }

    const sent = runs.filter((r) => r.outcome.kind === 'sent');
    expect(sent).toHaveLength(1);
    expect(runs.at(-1)?.outcome.kind, 'the last first poll settles the batch').toBe('sent');
    for (const run of runs.slice(0, -1)) expect(run.outcome.kind).toBe('skipped');
    const mails = await mailTo(recipient);
    expect(mails).toHaveLength(1);
    expect([...(mails[0]?.text ?? '').matchAll(/acct-\d+ \(/g)]).toHaveLength(N / 5);

    const readings = runs.map((r) => r.reads);
    expectNoFullScan(readings);
    const items = itemsByKind(readings);
    expect(items.get('BatchGetItem accounts'), 'the accounts are read whole once, by the claimant').toBe(N);
    expect(items.get('GetItem accounts') ?? 0, 'at most one member verified per check').toBeLessThanOrEqual(N);
    // Before: each check listed every account (N keys + N items), 2N² = 5,000 items for N = 50.
    expect(total(readings)).toBeLessThanOrEqual(16 * N);
    for (const reading of readings.slice(0, -1)) expect(reading.byKind.has(`BatchGetItem ${tableName(tables.prefix, 'accounts')}`)).toBe(false);
  }, 180_000);

  it('checks queued up behind the first polls (the batch settled before any ran): the first claims, the others read one item each', async () => {
    const recipient = uniqueEmail('onboard-backlog');
    const batch = NOW - 2 * 3_600_000;
    const accounts = await importBatch(batch, SALT + 1, recipient);
    for (const [index, account] of accounts.entries()) await firstPoll(account, index);

    const runs: { outcome: NotificationOutcome; reads: ReadReading }[] = [];
    for (const account of accounts) runs.push(await metered(checkOf(account)));

    expect(runs[0]?.outcome.kind).toBe('sent');
    for (const run of runs.slice(1)) {
      expect(run.outcome).toEqual({ kind: 'skipped', reason: 'another check of the batch announces it' });
      expect(run.reads.total.items, 'a check after the claim reads only the progress item').toBe(1);
    }
    expect(await mailTo(recipient)).toHaveLength(1);
    const readings = runs.map((r) => r.reads);
    expectNoFullScan(readings);
    expect(total(readings)).toBeLessThanOrEqual(6 * N);

    // The claimant's message redelivered: it may go on (its deliveries are made, nothing more is sent).
    const again = await metered(checkOf(accounts[0] as TrackedAccount));
    expect(again.outcome.kind).toBe('duplicate');
    expect(await mailTo(recipient)).toHaveLength(1);
  }, 180_000);

  it('an account removed before its first poll does not hold the batch back', async () => {
    const recipient = uniqueEmail('onboard-removed');
    const batch = NOW - 3 * 3_600_000;
    const accounts = await importBatch(batch, SALT + 2, recipient);
    const [gone, ...kept] = accounts as [TrackedAccount, ...TrackedAccount[]];
    expect((await repos.accounts.remove(gone.address)).kind).toBe('removed');
    const outcomes: NotificationOutcome[] = [];
    for (const [index, account] of kept.entries()) {
      await firstPoll(account, index);
      outcomes.push((await metered(checkOf(account))).outcome);
    }
    expect(outcomes.filter((o) => o.kind === 'sent')).toHaveLength(1);
    expect(outcomes.at(-1)?.kind).toBe('sent');
    expect(await mailTo(recipient)).toHaveLength(1);
  }, 180_000);
});
