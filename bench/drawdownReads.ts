/**
 * DynamoDB capacity of one poll's drawdown evaluation, with the full 90-day
 * window read every poll (before the rollup) and with the rollup (now), per interval.
 *
 * Starts DynamoDB Local (in memory), stores a full drawdown window of calm history for one
 * account per interval, runs the first evaluation (full read, rollup built), then two units'
 * worth of steady polls (one new point each, so the rollup is sealed twice), metering
 * `ReturnConsumedCapacity` on every request. "Before" is the same full-window query the
 * evaluation made on every poll before the rollup. DynamoDB Local reports the units DynamoDB
 * would bill for these requests; the dollars use the us-east-1 on-demand prices.
 *
 *   npx tsx bench/drawdownReads.ts [--intervals 1h,15m,1m]
 */
import { DEFAULT_COLLECT_SETTINGS } from '../functions/services/collect/collectSettings';
import { evaluateDrawdown } from '../functions/services/collect/evaluateDrawdown';
import { accountSettingsSchema } from '../functions/domain/account';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { INTERVAL_MS, intervalSchema, type Interval } from '../functions/domain/interval';
import { lookbackWindowMs } from '../functions/domain/lookbackWindow';
import { ROLLUP_UNIT_MS } from '../functions/domain/drawdownRollup';
import { createTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { DRAWDOWN_ROLLUP_RULE } from '../functions/store/drawdownRollupItem';
import { tableName } from '../functions/store/tableDefinitions';
import { startDynamoDbLocal } from '../local/dynamodb';
import { formatTable } from '../cli/output';
import { meterCapacity } from './costMeter';
import { PRICES_US_EAST_1 } from './prices-us-east-1';
import { prng } from './prng';

const argv = process.argv.slice(2);
const at = argv.indexOf('--intervals');
const INTERVALS: Interval[] = (at >= 0 ? argv[at + 1]! : '1h,15m,1m').split(',').map((i) => intervalSchema.parse(i));
/** After the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const START = Date.UTC(2030, 0, 7);
const DAY_MS = 86_400_000;

const dynamo = await startDynamoDbLocal({ inMemory: true });
try {
  const raw = createDynamoDbClient({ endpoint: dynamo.endpoint });
  const meter = meterCapacity(raw);
  const prefix = `bench${Date.now().toString(36)}-`;
  await createTables(raw, prefix);
  let now = START;
  const repos = createRepositories(createDocumentClient(raw), prefix, { now: () => now });
  const curvesTable = tableName(prefix, 'curves');
  const alertsTable = tableName(prefix, 'alerts');
  const rows: string[][] = [];
  const notes: string[] = [];

  for (const [n, interval] of INTERVALS.entries()) {
    const ms = INTERVAL_MS[interval];
    const windowMs = lookbackWindowMs(interval, DEFAULT_COLLECT_SETTINGS.lookbackMs);
    const settings = accountSettingsSchema.parse({
      address: `0x${(n + 1).toString(16).padStart(40, '0')}`,
      email: 'bench@example.com',
      interval,
      drawdown: '5,10,20',
    });
    const address = settings.address;
    now = START;
    await repos.accounts.create(newTrackedAccount(settings, now));
    const random = prng(n + 1);
    let equity = 100_000;
    let pnl = 0;
    const point = (ts: number) => {
      const change = equity * (0.00005 + 0.0002 * (random() - 0.5));
      equity += change;
      pnl += change;
      return { ts, equity: String(equity), pnl: String(pnl) };
    };
    const history = [];
    for (let ts = now - windowMs; ts <= now; ts += ms) history.push(point(ts));
    await repos.curves.putPoints(address, interval, history, now + DEFAULT_COLLECT_SETTINGS.retentionMs);

    const account = (await repos.accounts.get(address))!;
    meter.reset();
    await repos.curves.queryRange(address, interval, now - windowMs, now);
    const before = meter.read().readUnits.get(curvesTable) ?? 0;
    await (await evaluateDrawdown(repos, account, now, DEFAULT_COLLECT_SETTINGS, await repos.alerts.listForAccount(address))).commit();

    const polls = Math.round((2 * ROLLUP_UNIT_MS[interval]) / ms);
    meter.reset();
    for (let i = 0; i < polls; i++) {
      now += ms;
      const fresh = point(now);
      await repos.curves.putPoints(address, interval, [fresh], now + DEFAULT_COLLECT_SETTINGS.retentionMs);
      const pending = await evaluateDrawdown(repos, account, now, DEFAULT_COLLECT_SETTINGS, await repos.alerts.listForAccount(address), now);
      if (pending.events.length > 0) throw new Error(`a calm account raised an alert at ${interval}`);
      await pending.commit();
    }
    const reading = meter.read();
    const perPoll = (map: ReadonlyMap<string, number>, table: string) => (map.get(table) ?? 0) / polls;
    const afterCurves = perPoll(reading.readUnits, curvesTable);
    const afterAlertsRead = perPoll(reading.readUnits, alertsTable);
    const afterAlertsWrite = perPoll(reading.writeUnits, alertsTable);
    const rollupBytes = JSON.stringify((await repos.alerts.get(address, DRAWDOWN_ROLLUP_RULE))?.state ?? {}).length;

    const pollsPerMonth = (30 * DAY_MS) / ms;
    const { perReadRequestUnit: rru, perWriteRequestUnit: wru } = PRICES_US_EAST_1.dynamodb;
    // Per 1,000 accounts-month: the curves reads, and what the rollup adds (its writes; the alerts query stays 1 unit).
    const beforeUsd = before * pollsPerMonth * rru * 1_000;
    const afterUsd = (afterCurves * rru + afterAlertsWrite * wru) * pollsPerMonth * 1_000;
    rows.push([
      interval,
      String(history.length),
      before.toFixed(1),
      afterCurves.toFixed(2),
      afterAlertsRead.toFixed(2),
      afterAlertsWrite.toFixed(3),
      `$${beforeUsd.toFixed(2)}`,
      `$${afterUsd.toFixed(2)}`,
    ]);
    notes.push(`${interval}: ${polls} steady polls, rollup state ~${(rollupBytes / 1024).toFixed(1)} KB as JSON`);
  }

  console.log(`# bench/drawdownReads — ${new Date().toISOString()} (DynamoDB Local, in memory)`);
  console.log('Capacity units per steady poll for the drawdown evaluation; $ per 1,000 accounts-month for those units.\n');
  console.log(formatTable(['INTERVAL', 'WINDOW POINTS', 'CURVES RRU BEFORE', 'CURVES RRU NOW', 'ALERTS RRU NOW', 'ALERTS WRU NOW', '$ BEFORE', '$ NOW'], rows));
  console.log(`\n${notes.join('\n')}`);
  console.log('ALERTS RRU is the alert-state query every poll made before too (1 unit); ALERTS WRU is the rollup rewrite once per unit.');
} finally {
  await dynamo.stop();
}
