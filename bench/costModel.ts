import { FUNCTION_SIZING } from '../infra/config/functionSizing';
import type { HandlerName } from '../infra/bundling/handlerCatalog';
import type { IntervalRun } from './costScenario';
import { PLATFORM_LOG_BYTES_PER_INVOCATION } from './costUsage';
import { PRICES_US_EAST_1 as P } from './prices-us-east-1';

/** A 30-day month. */
export const MONTH_MS = 30 * 86_400_000;
const PER = 1_000;
const GB = 1e9;

/** What the email side costs per report, measured by `bench/report.ts` in the same run. */
export interface EmailMeasurement {
  /** Mean wall time of one `sendDailyReport` (chart, render, MIME, send), ms. */
  readonly meanReportMs: number;
}

/** One service's dollars per 1,000 accounts-month, without and with email. */
export interface CostLine {
  readonly service: string;
  readonly without: number;
  readonly withEmail: number;
  readonly note: string;
}

function gbSeconds(fn: HandlerName, billedMs: number): number {
  return (billedMs / 1000) * (FUNCTION_SIZING[fn].memorySize / 1024);
}

function lambdaCost(fn: HandlerName, invocations: number, billedMs: number): number {
  return invocations * P.lambda.perRequest + gbSeconds(fn, billedMs) * P.lambda.gbSecondArm;
}

/**
 * Prices one interval's run for 1,000 accounts over a month. Everything measured per account
 * scales by (1,000 / accounts) × (month / window); what runs on a clock whatever the number of
 * accounts (dispatch every minute, its schedule, the hourly daily-report run) scales by the month
 * only, once for the deployment. "With email" adds a daily report per account per day and one
 * email per alert event the run queued.
 */
export function priceRun(run: IntervalRun, email: EmailMeasurement): CostLine[] {
  const month = MONTH_MS / run.windowMs;
  const scale = month * (PER / run.accounts);
  const minutes = MONTH_MS / 60_000;
  const hours = MONTH_MS / 3_600_000;
  const collect = run.usage.lambda.get('collect') ?? { invocations: 0, billedMs: 0 };
  const dispatch = run.usage.lambda.get('dispatch') ?? { invocations: 0, billedMs: 0 };
  const activeDispatches = dispatch.invocations - run.idleDispatches;
  const idleMsPerRun = run.idleDispatches ? run.idleDispatchMs / run.idleDispatches : 0;
  // Every minute is one invocation; an idle one costs what the run's idle ones cost, an active one adds what the accounts it claimed add.
  const dispatchMs = minutes * idleMsPerRun + Math.max(0, dispatch.billedMs - run.idleDispatchMs - activeDispatches * idleMsPerRun) * scale;

  const reports = (MONTH_MS / 86_400_000) * PER;
  const alerts = run.usage.notifyEvents * scale;
  const emails = reports + alerts;

  const wcu = sum(run.capacity.writeUnits) * scale;
  const rcu = sum(run.capacity.readUnits) * scale;
  const storedGb = (sum(run.storedBytesPerAccount) * PER) / GB;
  // Dispatch's platform lines come once a minute whatever the accounts; the rest grows with them.
  const logGb = ((run.usage.logBytes - dispatch.invocations * PLATFORM_LOG_BYTES_PER_INVOCATION) * scale + (minutes + hours) * PLATFORM_LOG_BYTES_PER_INVOCATION) / GB;
  const emailLogGb = ((emails + hours) * (PLATFORM_LOG_BYTES_PER_INVOCATION + 400)) / GB;
  const sqs = run.usage.sqsRequests * scale;
  const lines: CostLine[] = [
    {
      service: 'Lambda collect',
      without: lambdaCost('collect', collect.invocations * scale, collect.billedMs * scale),
      withEmail: lambdaCost('collect', collect.invocations * scale, collect.billedMs * scale),
      note: `${fmt(collect.invocations * scale)} invocations, ${fmt(gbSeconds('collect', collect.billedMs * scale))} GB-s`,
    },
    {
      service: 'Lambda dispatch',
      without: lambdaCost('dispatch', minutes, dispatchMs),
      withEmail: lambdaCost('dispatch', minutes, dispatchMs),
      note: `${fmt(minutes)} invocations, ${fmt(gbSeconds('dispatch', dispatchMs))} GB-s`,
    },
    {
      service: 'Lambda daily-report + notify',
      without: lambdaCost('daily-report', hours, hours * 200),
      withEmail: lambdaCost('daily-report', hours, hours * 200 + reports * email.meanReportMs) + lambdaCost('notify', alerts, alerts * email.meanReportMs),
      note: `hourly run (~200 ms when nobody is due); with email ${fmt(emails)} emails at ${email.meanReportMs.toFixed(0)} ms`,
    },
    {
      service: 'DynamoDB requests',
      without: wcu * P.dynamodb.perWriteRequestUnit + rcu * P.dynamodb.perReadRequestUnit,
      withEmail: wcu * P.dynamodb.perWriteRequestUnit + rcu * P.dynamodb.perReadRequestUnit,
      note: `${fmt(wcu)} WRU, ${fmt(rcu)} RRU (collect and dispatch): per poll ${perPoll(run.capacity.writeUnits, run.polls)} WRU, ${perPoll(run.capacity.readUnits, run.polls)} RRU; writes by table ${byTable(run.capacity.writeUnits, run.polls)}`,
    },
    {
      service: 'DynamoDB storage + PITR',
      without: storedGb * (P.dynamodb.perGbMonth + P.dynamodb.pitrPerGbMonth),
      withEmail: storedGb * (P.dynamodb.perGbMonth + P.dynamodb.pitrPerGbMonth),
      note: `${storedGb.toFixed(2)} GB at steady state (TTL'd series at their full lifetime): ${largest(run.storedBytesPerAccount)}`,
    },
    {
      service: 'SQS',
      without: sqs * P.sqs.perRequest,
      withEmail: (sqs + alerts * 0.3) * P.sqs.perRequest,
      note: `${fmt(sqs)} requests`,
    },
    {
      service: 'EventBridge Scheduler',
      without: (minutes + hours) * P.scheduler.perInvocation,
      withEmail: (minutes + hours) * P.scheduler.perInvocation,
      note: `${fmt(minutes + hours)} invocations (dispatch every minute, daily-report hourly)`,
    },
    {
      service: 'SES',
      without: 0,
      withEmail: emails * P.ses.perEmail,
      note: `${fmt(emails)} emails (a daily report per account per day, ${fmt(alerts)} alerts)`,
    },
    {
      service: 'Secrets Manager + KMS',
      without: 0,
      withEmail: (hours + alerts) * (P.secretsManager.perApiCall + P.kms.perSymmetricRequest),
      note: 'one GetSecretValue (and its KMS Decrypt) per mailer cold start, every invocation counted as cold; no revocations signed',
    },
    {
      service: 'CloudWatch Logs',
      without: logGb * (P.cloudwatch.perGbLogsIngested + P.cloudwatch.perGbLogsStoredMonth),
      withEmail: (logGb + emailLogGb) * (P.cloudwatch.perGbLogsIngested + P.cloudwatch.perGbLogsStoredMonth),
      note: `${(logGb * 1000).toFixed(1)} MB ingested (INFO lines, platform lines, EMF), 30-day retention`,
    },
  ];
  return lines;
}

/** The largest tables of a per-account byte map, in KB per account. */
function largest(bytes: ReadonlyMap<string, number>): string {
  return [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([table, b]) => `${table} ${(b / 1024).toFixed(0)} KB/account`).join(', ');
}

function perPoll(units: ReadonlyMap<string, number>, polls: number): string {
  return (sum(units) / Math.max(1, polls)).toFixed(2);
}

function byTable(units: ReadonlyMap<string, number>, polls: number): string {
  return [...units].sort((a, b) => b[1] - a[1]).map(([table, u]) => `${table.replace(/^cost[^-]*-/, '')} ${(u / Math.max(1, polls)).toFixed(2)}`).join(', ');
}

/** The same run as if every poll had consumed `writeUnitsPerPoll` write units (a what-if for write-path changes). */
export function withWriteUnitsPerPoll(run: IntervalRun, writeUnitsPerPoll: number): IntervalRun {
  return { ...run, capacity: { ...run.capacity, writeUnits: new Map([['(what-if)', writeUnitsPerPoll * run.polls]]) } };
}

function sum(map: ReadonlyMap<string, number>): number {
  return [...map.values()].reduce((a, b) => a + b, 0);
}

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0);
}

/** Markdown table of one interval's lines and their totals. */
export function costTable(lines: readonly CostLine[]): string {
  const rows = [...lines.map((l) => [l.service, money(l.without), money(l.withEmail), l.note]), ['**total**', `**${money(total(lines, 'without'))}**`, `**${money(total(lines, 'withEmail'))}**`, '']];
  const header = ['service', '$ without email', '$ with email', 'what'];
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function total(lines: readonly CostLine[], key: 'without' | 'withEmail'): number {
  return lines.reduce((a, l) => a + l[key], 0);
}

export function money(n: number): string {
  return n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2);
}
