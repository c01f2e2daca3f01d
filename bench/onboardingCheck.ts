/**
 * What the onboarding checks of one imported batch read, in items and read units: every first
 * poll of the batch queues a check (`services/collect/queueOnboardingCheck`), and each check runs
 * `deliverOnboardingNotice`.
 *
 * Starts DynamoDB Local (in memory), imports `N` accounts at once (one batch; every fifth already
 * past 5% and 10%, all mailing one desk address), then plays two orders of the batch's first polls
 * and checks (what collect writes at a first poll: `polled`, the drawdown levels):
 * - interleaved: the first polls end in random order, each check runs right after its poll;
 * - backlog: every first poll ended before the first check runs (checks queued up on notify).
 * Mail goes to a counting sender (rendered, not sent). "Before" is the check as it was: each one
 * listed every tracked account (`accounts.list()`: the keys of `byNextReport`, then every item);
 * one such list is measured on the same table and counted once per check.
 *
 *   npx tsx bench/onboardingCheck.ts [--accounts 1000,10000] [--progress]
 *
 * `--progress` prints each row to stderr as it is measured (10,000 accounts take tens of minutes on a loaded machine).
 */
import { getAddress } from 'viem';
import type { TrackedAccount } from '../functions/domain/account';
import { KILL_SWITCH_OFF } from '../functions/domain/account';
import type { LevelState } from '../functions/domain/alertMachine';
import { DRAWDOWN_RULE } from '../functions/domain/drawdownState';
import { ActionLinks } from '../functions/links/actionLinks';
import { LinkTokenCodec } from '../functions/links/linkToken';
import { createEmailRenderer } from '../functions/mail/render/render';
import type { MailSender } from '../functions/mail/send/sesSender';
import type { OnboardingCheck } from '../functions/messages/notifyMessage';
import { deliverOnboardingNotice, type OnboardingNoticeDeps } from '../functions/services/notify/deliverOnboardingNotice';
import { mapConcurrent } from '../functions/shared/concurrency';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import { createTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories, type Repositories } from '../functions/store/repositories';
import { startDynamoDbLocal } from '../local/dynamodb';
import { formatTable } from '../cli/output';
import { meterCapacity, type CapacityMeter } from './costMeter';
import { prng } from './prng';
import { meterReads, type ReadMeter } from './readMeter';

const argv = process.argv.slice(2);
const at = argv.indexOf('--accounts');
const SIZES = (at >= 0 ? (argv[at + 1] ?? '') : '1000,10000').split(',').map((n) => Number.parseInt(n, 10));
if (SIZES.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--accounts takes positive integers, comma-separated');
/** After the machine's date, so DynamoDB Local's TTL sweep leaves the progress and delivery items alone. */
const START = Date.UTC(2030, 0, 7);

const address = (batch: number, n: number) => getAddress(`0x${batch.toString(16).padStart(8, '0')}${n.toString(16).padStart(32, '0')}`);
const breached: LevelState = { status: 'breached', lastValue: 12, lastSentAt: null, breachedAt: START, baseline: true };
const armed: LevelState = { status: 'armed', lastValue: 1, lastSentAt: null, breachedAt: null };

function account(batch: number, n: number): TrackedAccount {
  return {
    address: address(batch, n),
    emails: ['desk@example.com'],
    label: `acct-${n}`,
    interval: '1h',
    drawdownThresholds: [5, 10, 20],
    reportAt: '08:00',
    timezone: 'UTC',
    expiryWarnDays: [],
    signer: null,
    delegateWatch: null,
    ...KILL_SWITCH_OFF,
    keepDelegates: [],
    revokeUnknown: 'off',
    createdAt: START + batch,
    status: 'ok',
    statusReason: null,
    nextDueAt: START + batch,
    nextReportAt: START + 86_400_000,
    consecutiveErrors: 0,
    consecutiveEmptyPolls: 0,
    polled: false,
    lastFailure: null,
  };
}

/** What collect writes at the account's first poll that the check reads. */
async function firstPoll(repos: Repositories, a: TrackedAccount, n: number): Promise<void> {
  const levels = n % 5 === 0 ? { 5: breached, 10: breached, 20: armed } : { 5: armed, 10: armed, 20: armed };
  await repos.alerts.compareAndSet(a.address, DRAWDOWN_RULE, null, { levels });
  await repos.accounts.recordHealth(a.address, { status: 'ok', statusReason: null, consecutiveErrors: 0, consecutiveEmptyPolls: 0, polled: true });
}

const checkOf = (a: TrackedAccount): OnboardingCheck => ({
  kind: 'onboarding-check',
  eventId: `onboarding:${a.createdAt}:polled:${a.address.toLowerCase()}`,
  account: a.address,
  at: a.createdAt,
  batch: a.createdAt,
});

interface Measured {
  readonly items: number;
  readonly units: number;
  readonly maxItemsPerCheck: number;
  readonly sent: number;
}

const dynamo = await startDynamoDbLocal({ inMemory: true });
try {
  const raw = createDynamoDbClient({ endpoint: dynamo.endpoint });
  const reads: ReadMeter = meterReads(raw);
  const capacity: CapacityMeter = meterCapacity(raw);
  const prefix = `bench${Date.now().toString(36)}-`;
  await createTables(raw, prefix);
  const now = () => START;
  const repos = createRepositories(createDocumentClient(raw), prefix, { now });
  let mailed = 0;
  const sender: MailSender = { send: () => Promise.resolve({ messageId: `bench-${++mailed}` }) };
  const deps: OnboardingNoticeDeps = {
    repos,
    sender,
    renderer: createEmailRenderer(),
    links: new ActionLinks(new LinkTokenCodec('onboarding-bench-link-secret-0123456789abcdef'), 'https://links.example.com'),
    mailFrom: 'sentinel@example.com',
    log: silentLog,
    counters: memoryCounters(),
    now,
  };
  const readUnits = () => [...capacity.read().readUnits.values()].reduce((s, u) => s + u, 0);

  async function checks(batchAccounts: readonly TrackedAccount[], order: 'interleaved' | 'backlog', random: () => number): Promise<Measured> {
    const shuffled = batchAccounts.map((a, n) => ({ a, n, key: random() })).sort((x, y) => x.key - y.key);
    if (order === 'backlog') await mapConcurrent(shuffled, 16, ({ a, n }) => firstPoll(repos, a, n));
    let items = 0;
    let units = 0;
    let maxItemsPerCheck = 0;
    const before = mailed;
    for (const { a, n } of shuffled) {
      if (order === 'interleaved') await firstPoll(repos, a, n);
      reads.reset();
      capacity.reset();
      await deliverOnboardingNotice(deps, checkOf(a));
      const got = reads.read().total.items;
      items += got;
      units += readUnits();
      maxItemsPerCheck = Math.max(maxItemsPerCheck, got);
    }
    return { items, units, maxItemsPerCheck, sent: mailed - before };
  }

  const rows: string[][] = [];
  let batchNo = 0;
  for (const size of SIZES) {
    for (const order of ['interleaved', 'backlog'] as const) {
      const batch = ++batchNo;
      const accounts = Array.from({ length: size }, (_, n) => account(batch, n));
      await repos.accounts.importMany(accounts);
      const measured = await checks(accounts, order, prng(batch));
      // Before: one list of every tracked account per check (this batch's accounts are all there is of it).
      reads.reset();
      capacity.reset();
      await repos.accounts.list();
      const listItems = reads.read().total.items;
      const listUnits = readUnits();
      rows.push([
        size.toLocaleString('en-US'),
        order,
        (listItems * size).toLocaleString('en-US'),
        Math.round(listUnits * size).toLocaleString('en-US'),
        measured.items.toLocaleString('en-US'),
        Math.round(measured.units).toLocaleString('en-US'),
        (measured.items / size).toFixed(1),
        measured.maxItemsPerCheck.toLocaleString('en-US'),
        String(measured.sent),
      ]);
      if (process.argv.includes('--progress')) console.error(rows.at(-1)?.join('  '));
      // The next batch starts on an empty table, as one import would.
      await repos.accounts.removeMany(accounts.map((a) => a.address));
    }
  }

  console.log(`# bench/onboardingCheck — ${new Date().toISOString()} (DynamoDB Local, in memory)`);
  console.log('Reads of all the onboarding checks of one imported batch of N accounts (one check per first poll).\n');
  console.log(
    formatTable(['ACCOUNTS', 'ORDER', 'ITEMS BEFORE', 'RRU BEFORE', 'ITEMS NOW', 'RRU NOW', 'ITEMS NOW PER ACCOUNT', 'MAX ITEMS ONE CHECK', 'EMAILS'], rows),
  );
  console.log(
    '\nITEMS: account items, index entries and progress items read (Query: items evaluated). BEFORE: one list of every account measured, times N checks ' +
      '(the checks after the batch settled also read its alert states: not counted, so BEFORE is a floor). MAX ITEMS ONE CHECK: the claimant, which reads the batch.',
  );
} finally {
  await dynamo.stop();
}
