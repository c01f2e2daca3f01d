import { FUNCTION_SIZING } from '../infra/config/functionSizing';
import type { HandlerName } from '../functions/config/handlerCatalog';
import type { IntervalRun } from './costScenario';
import type { DeploymentRun } from './costDeployment';
import { PRICES_US_EAST_1 as P } from './prices-us-east-1';

/** A 30-day month. */
export const MONTH_MS = 30 * 86_400_000;
const PER = 1_000;
const GB = 1e9;

/** What the email side costs per report, measured by `bench/report.ts` in the same run. */
export interface EmailMeasurement {
  /** Mean wall time of one `sendAccountReport` (chart, render, MIME, send), ms. */
  readonly meanReportMs: number;
}

/** One service's dollars per 1,000 accounts-month, without and with email. */
export interface CostLine {
  readonly service: string;
  readonly without: number;
  readonly withEmail: number;
  /** The part of `without` not scaled from the simulated accounts: the deployment run at 1,000 accounts and the clocks. */
  readonly deployment: number;
  readonly note: string;
}

function gbSeconds(fn: HandlerName, billedMs: number): number {
  return (billedMs / 1000) * (FUNCTION_SIZING[fn].memorySize / 1024);
}

function lambdaCost(fn: HandlerName, invocations: number, billedMs: number): number {
  return invocations * P.lambda.perRequest + gbSeconds(fn, billedMs) * P.lambda.gbSecondArm;
}

const NONE = { invocations: 0, billedMs: 0 };
const NO_UNITS = { readUnits: 0, writeUnits: 0 };

/** How each measured quantity becomes a month at 1,000 accounts. */
interface Scales {
  /** Per-account work of the interval run: × (month / window) × (1,000 / accounts). */
  readonly perAccount: number;
  /** The deployment run (already at 1,000 accounts): × (month / its window). */
  readonly deployment: number;
}

function scalesOf(run: IntervalRun, deployment: DeploymentRun): Scales {
  return { perAccount: (MONTH_MS / run.windowMs) * (PER / run.accounts), deployment: (MONTH_MS / deployment.windowMs) * (PER / deployment.accounts) };
}

/** Collect's units with dispatch's taken out (dispatch runs alone; the meter labels its units). */
function collectUnits(run: IntervalRun): { readUnits: number; writeUnits: number } {
  const dispatch = run.capacity.labelled.get('dispatch') ?? NO_UNITS;
  return { readUnits: sum(run.capacity.readUnits) - dispatch.readUnits, writeUnits: sum(run.capacity.writeUnits) - dispatch.writeUnits };
}

/** Collect's write units by table per poll: dispatch touches only `accounts` (its cursor), so its units come off that table. */
function collectWritesByTable(run: IntervalRun): string {
  const dispatch = run.capacity.labelled.get('dispatch') ?? NO_UNITS;
  const units = new Map([...run.capacity.writeUnits].map(([table, u]) => [table, table.endsWith('-accounts') ? u - dispatch.writeUnits : u]));
  return byTable(units, run.polls);
}

/** Collect's read and write units per poll (dispatch's excluded), as measured. */
export function collectUnitsPerPoll(run: IntervalRun): { readUnits: number; writeUnits: number } {
  const units = collectUnits(run);
  return { readUnits: units.readUnits / Math.max(1, run.polls), writeUnits: units.writeUnits / Math.max(1, run.polls) };
}

/** One kind of log line, a month at 1,000 accounts. */
export interface LogRow {
  readonly key: string;
  readonly lines: number;
  readonly bytes: number;
}

/**
 * The log lines a month at 1,000 accounts, largest first. Collect's own lines grow with the polls
 * and watched accounts (scaled); its EMF documents come one per invocation (their mean size times
 * the invocations the deployment run counted); dispatch's lines and EMF are the deployment run's.
 */
export function logRows(run: IntervalRun, deployment: DeploymentRun): LogRow[] {
  const scales = scalesOf(run, deployment);
  const collectInvocations = (run.usage.lambda.get('collect') ?? NONE).invocations;
  const rows: LogRow[] = [];
  for (const [key, tally] of run.usage.logByMessage) {
    if (!key.startsWith('collect ')) continue;
    if (key === 'collect EMF') {
      const perInvocation = collectInvocations ? tally.bytes / collectInvocations : 0;
      const linesPerInvocation = collectInvocations ? tally.lines / collectInvocations : 0;
      const invocations = deployment.collectBatches * scales.deployment;
      rows.push({ key, lines: linesPerInvocation * invocations, bytes: perInvocation * invocations });
    } else rows.push({ key, lines: tally.lines * scales.perAccount, bytes: tally.bytes * scales.perAccount });
  }
  for (const [key, tally] of deployment.usage.logByMessage) rows.push({ key, lines: tally.lines * scales.deployment, bytes: tally.bytes * scales.deployment });
  return rows.sort((a, b) => b.bytes - a.bytes);
}

/**
 * Prices one interval's run for 1,000 accounts over a month. What grows with the accounts (collect's
 * billed time, its DynamoDB units, its log lines per poll, stored bytes) scales by
 * (1,000 / accounts) × (month / window). What does not, is taken from `deployment`, the dispatch
 * run at 1,000 accounts, by the month only: dispatch's invocations, time, reads and writes and log
 * lines; how many messages, batches (collect invocations) and SQS requests the collect queue sees;
 * the EMF document per collect invocation. The clocks (the schedules, the hourly daily-report run)
 * count once. "With email" adds a daily report per account per day and one email per alert event.
 */
export function priceRun(run: IntervalRun, deployment: DeploymentRun, email: EmailMeasurement): CostLine[] {
  const scales = scalesOf(run, deployment);
  const scale = scales.perAccount;
  const minutes = MONTH_MS / 60_000;
  const hours = MONTH_MS / 3_600_000;
  const collect = run.usage.lambda.get('collect') ?? NONE;
  const dispatch = deployment.usage.lambda.get('dispatch') ?? NONE;
  const collectInvocations = deployment.collectBatches * scales.deployment;
  const dispatchInvocations = dispatch.invocations * scales.deployment;
  const dispatchMs = dispatch.billedMs * scales.deployment;

  const reports = (MONTH_MS / 86_400_000) * PER;
  const alerts = run.usage.notifyEvents * scale;
  const emails = reports + alerts;

  const units = collectUnits(run);
  const wcu = units.writeUnits * scale;
  const rcu = units.readUnits * scale;
  const dispatchWcu = deployment.dispatchWriteUnits * scales.deployment;
  const dispatchRcu = deployment.dispatchReadUnits * scales.deployment;
  const unitsCost = (w: number, r: number) => w * P.dynamodb.perWriteRequestUnit + r * P.dynamodb.perReadRequestUnit;
  const storedGb = (sum(run.storedBytesPerAccount) * PER) / GB;
  const rows = logRows(run, deployment);
  const logGb = rows.reduce((a, r) => a + r.bytes, 0) / GB;
  const deploymentLogGb = rows.filter((r) => !r.key.startsWith('collect ') || r.key === 'collect EMF').reduce((a, r) => a + r.bytes, 0) / GB;
  const emailLogGb = (emails * 400) / GB;
  const logPrice = P.cloudwatch.perGbLogsIngested + P.cloudwatch.perGbLogsStoredMonth;
  const collectSqs = deployment.sqsRequests * scales.deployment;
  const notifySqs = run.usage.notifySqsRequests * scale;
  const collectCost = lambdaCost('collect', collectInvocations, collect.billedMs * scale);
  const dispatchCost = lambdaCost('dispatch', dispatchInvocations, dispatchMs);
  const idleReports = lambdaCost('daily-report', hours, hours * 200);
  const requestsCost = unitsCost(wcu + dispatchWcu, rcu + dispatchRcu);
  const sqsCost = (collectSqs + notifySqs) * P.sqs.perRequest;
  const lines: CostLine[] = [
    {
      service: 'Lambda collect',
      without: collectCost,
      withEmail: collectCost,
      deployment: collectInvocations * P.lambda.perRequest,
      note: `${fmt(collectInvocations)} invocations (batches at 1,000 accounts), ${fmt(gbSeconds('collect', collect.billedMs * scale))} GB-s (scaled)`,
    },
    {
      service: 'Lambda dispatch',
      without: dispatchCost,
      withEmail: dispatchCost,
      deployment: dispatchCost,
      note: `${fmt(dispatchInvocations)} invocations, ${fmt(gbSeconds('dispatch', dispatchMs))} GB-s, ${(dispatch.billedMs / Math.max(1, dispatch.invocations)).toFixed(0)} ms a run at 1,000 accounts`,
    },
    {
      service: 'Lambda daily-report + notify',
      without: idleReports,
      withEmail: lambdaCost('daily-report', hours, hours * 200 + reports * email.meanReportMs) + lambdaCost('notify', alerts, alerts * email.meanReportMs),
      deployment: idleReports,
      note: `hourly run (~200 ms when nobody is due); with email ${fmt(emails)} emails at ${email.meanReportMs.toFixed(0)} ms`,
    },
    {
      service: 'DynamoDB requests',
      without: requestsCost,
      withEmail: requestsCost,
      deployment: unitsCost(dispatchWcu, dispatchRcu),
      note:
        `collect ${fmt(wcu)} WRU, ${fmt(rcu)} RRU: per poll ${(units.writeUnits / Math.max(1, run.polls)).toFixed(2)} WRU (${collectWritesByTable(run)}), ` +
        `${(units.readUnits / Math.max(1, run.polls)).toFixed(2)} RRU (${collectReadsByTable(run)}); dispatch ${fmt(dispatchWcu)} WRU, ${fmt(dispatchRcu)} RRU ` +
        `(${(deployment.dispatchWriteUnits / Math.max(1, dispatch.invocations)).toFixed(2)} WRU, ${(deployment.dispatchReadUnits / Math.max(1, dispatch.invocations)).toFixed(2)} RRU a run)`,
    },
    {
      service: 'DynamoDB storage + PITR',
      without: storedGb * (P.dynamodb.perGbMonth + P.dynamodb.pitrPerGbMonth),
      withEmail: storedGb * (P.dynamodb.perGbMonth + P.dynamodb.pitrPerGbMonth),
      deployment: 0,
      note: `${storedGb.toFixed(2)} GB at steady state (TTL'd series at their full lifetime): ${largest(run.storedBytesPerAccount)}`,
    },
    {
      service: 'SQS',
      without: sqsCost,
      withEmail: sqsCost + alerts * 0.3 * P.sqs.perRequest,
      deployment: collectSqs * P.sqs.perRequest,
      note: `${fmt(collectSqs + notifySqs)} requests: collect queue at 1,000 accounts ${(deployment.polls / Math.max(1, dispatch.invocations)).toFixed(1)} polls + ${(deployment.watchJobs / Math.max(1, dispatch.invocations)).toFixed(1)} watch jobs a minute`,
    },
    {
      service: 'EventBridge Scheduler',
      without: (minutes + hours) * P.scheduler.perInvocation,
      withEmail: (minutes + hours) * P.scheduler.perInvocation,
      deployment: (minutes + hours) * P.scheduler.perInvocation,
      note: `${fmt(minutes + hours)} invocations (dispatch every minute, daily-report hourly)`,
    },
    {
      service: 'SES',
      without: 0,
      withEmail: emails * P.ses.perEmail,
      deployment: 0,
      note: `${fmt(emails)} emails (a daily report per account per day, ${fmt(alerts)} alerts)`,
    },
    {
      service: 'Secrets Manager + KMS',
      without: 0,
      withEmail: (hours + alerts) * (P.secretsManager.perApiCall + P.kms.perSymmetricRequest),
      deployment: 0,
      note: 'one GetSecretValue (and its KMS Decrypt) per mailer cold start, every invocation counted as cold; no revocations signed',
    },
    {
      service: 'CloudWatch Logs',
      without: logGb * logPrice,
      withEmail: (logGb + emailLogGb) * logPrice,
      deployment: deploymentLogGb * logPrice,
      note: `${(logGb * 1000).toFixed(1)} MB ingested (INFO lines with the Lambda context keys, EMF; no platform lines at systemLogLevel WARN), 30-day retention`,
    },
  ];
  return lines;
}

/** Collect's read units by table per poll: dispatch reads only `accounts` (its slot and pending queries), so its units come off that table. */
function collectReadsByTable(run: IntervalRun): string {
  const dispatch = run.capacity.labelled.get('dispatch') ?? NO_UNITS;
  const units = new Map([...run.capacity.readUnits].map(([table, u]) => [table, table.endsWith('-accounts') ? u - dispatch.readUnits : u]));
  return byTable(units, run.polls);
}

/** The largest tables of a per-account byte map, in KB per account. */
function largest(bytes: ReadonlyMap<string, number>): string {
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([table, b]) => `${table} ${(b / 1024).toFixed(0)} KB/account`)
    .join(', ');
}

function byTable(units: ReadonlyMap<string, number>, polls: number): string {
  return [...units]
    .sort((a, b) => b[1] - a[1])
    .map(([table, u]) => `${table.replace(/^cost[^-]*-/, '')} ${(u / Math.max(1, polls)).toFixed(2)}`)
    .join(', ');
}

function sum(map: ReadonlyMap<string, number>): number {
  return [...map.values()].reduce((a, b) => a + b, 0);
}

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0);
}

/** Markdown table of one interval's lines and their totals. */
export function costTable(lines: readonly CostLine[]): string {
  const rows = [
    ...lines.map((l) => [l.service, money(l.without), money(l.withEmail), money(l.deployment), l.note]),
    ['**total**', `**${money(total(lines, 'without'))}**`, `**${money(total(lines, 'withEmail'))}**`, `**${money(total(lines, 'deployment'))}**`, ''],
  ];
  const header = ['service', '$ without email', '$ with email', '$ of it per deployment', 'what'];
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function total(lines: readonly CostLine[], key: 'without' | 'withEmail' | 'deployment'): number {
  return lines.reduce((a, l) => a + l[key], 0);
}

export function money(n: number): string {
  return n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2);
}
