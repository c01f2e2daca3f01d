import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { addressSchema } from '../../functions/domain/address';
import {
  accountSettingsPatchSchema,
  accountSettingsSchema,
  describeSettingsError,
  type AccountSettings,
  type AccountSettingsPatch,
} from '../../functions/domain/account';
import { applySettingsPatch, newTrackedAccount } from '../../functions/domain/trackedAccount';
import type { TrackedAccount } from '../../functions/domain/account';
import { nextPollAt } from '../../functions/domain/schedule';
import { pollOverdue } from '../../functions/domain/pollOverdue';
import type { CliContext } from '../cliRuntime';
import { parseImport } from '../importRows';
import { formatTable, printJson, UsageError } from '../output';

interface SettingOptions {
  email?: string;
  label?: string;
  interval?: string;
  drawdown?: string;
  reportAt?: string;
  timezone?: string;
  expiryWarnDays?: string;
  signer?: string;
  delegateWatch?: string;
}

function withSettingOptions(command: Command, emailRequired: boolean): Command {
  const email = '--email <a[,b]>';
  const emailHelp = 'recipients, comma-separated';
  if (emailRequired) command.requiredOption(email, emailHelp);
  else command.option(email, emailHelp);
  return command
    .option('--label <label>', 'a name for the account (at most 64 characters; "" removes it on update)')
    .option('--interval <interval>', 'poll and curve interval: 1m 5m 15m 30m 1h 4h 1d (default 1h)')
    .option('--drawdown <levels>', 'drawdown alert levels in percent, e.g. 5,10,20 (default); "none" turns them off')
    .option('--report-at <HH:MM>', 'local time of the daily report (default 08:00)')
    .option('--timezone <zone>', 'IANA time zone of the report time, e.g. Europe/Berlin (default UTC)')
    .option('--expiry-warn-days <days>', 'days before a delegate expires to warn, e.g. 14,7,3,1 (default)')
    .option('--signer <ref>', 'where the owner key lives: kms:<key id or alias> or env:<VARIABLE>; enables one-click revocation')
    .option('--delegate-watch <interval>', 'how often delegates are checked, apart from the curve polls: 1m 5m 15m 30m 1h 4h 1d (default 5m), or none (with each poll)');
}

function parseAddress(value: string): string {
  const parsed = addressSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`address "${value}" is not a 20-byte hex address`);
  return parsed.data;
}

function settingsFrom(address: string, options: SettingOptions): AccountSettings {
  const parsed = accountSettingsSchema.safeParse({ address, ...options });
  if (!parsed.success) throw new UsageError(describeSettingsError(parsed.error));
  return parsed.data;
}

/** `sentinel accounts ...`: track, change, import, list, show and remove accounts. */
export function register(program: Command, context: CliContext): void {
  const accounts = program.command('accounts').description('manage tracked accounts');
  const { io } = context;

  withSettingOptions(
    accounts.command('add').argument('<address>', 'account address (any case; stored checksummed)').description('track an account'),
    true,
  ).action(async (address: string, options: SettingOptions) => {
    const settings = settingsFrom(parseAddress(address), options);
    const rt = await context.runtime();
    const outcome = await rt.repos.accounts.create(newTrackedAccount(settings, rt.now()));
    if (outcome.kind === 'exists') throw new Error(`${settings.address} is already tracked; use "accounts update" to change it`);
    io.out(`tracking ${settings.address}${settings.label ? ` (${settings.label})` : ''}\n`);
    if (!settings.signer) io.err('note: no --signer given, so alerts carry no one-click revocation link\n');
  });

  withSettingOptions(accounts.command('update').argument('<address>').description('change the settings of a tracked account'), false).action(
    async (address: string, options: SettingOptions) => {
      const checksummed = parseAddress(address);
      const patch = accountSettingsPatchSchema.safeParse(options);
      if (!patch.success) throw new UsageError(describeSettingsError(patch.error));
      if (Object.values(patch.data).every((v) => v === undefined)) throw new UsageError('nothing to update: give at least one option');
      const rt = await context.runtime();
      const current = await rt.repos.accounts.get(checksummed);
      if (!current) throw new Error(`${checksummed} is not tracked`);
      const given = Object.fromEntries(Object.entries(patch.data).filter(([, v]) => v !== undefined)) as AccountSettingsPatch;
      const next = applySettingsPatch(current, given, rt.now());
      const outcome = await rt.repos.accounts.updateSettings(checksummed, {
        emails: next.emails,
        label: next.label,
        interval: next.interval,
        drawdownThresholds: next.drawdownThresholds,
        reportAt: next.reportAt,
        timezone: next.timezone,
        expiryWarnDays: next.expiryWarnDays,
        signer: next.signer,
        delegateWatch: next.delegateWatch,
        nextDueAt: next.nextDueAt,
        nextReportAt: next.nextReportAt,
      });
      if (outcome.kind === 'not-found') throw new Error(`${checksummed} is not tracked`);
      io.out(`updated ${checksummed}\n`);
    },
  );

  accounts
    .command('import')
    .argument('<file>', 'CSV with a header row (address,email,label,interval,drawdown,report-at,timezone,expiry-warn-days,signer; lists separated by ";") or JSON lines with the same keys')
    .description('add or update many accounts at once; bad rows are reported by line and the rest imported')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, options: { json?: boolean }) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const parsed = parseImport(text);
      const errors = [...parsed.errors];
      const valid = new Map<string, AccountSettings>();
      for (const row of parsed.rows) {
        const settings = accountSettingsSchema.safeParse(row.values);
        if (settings.success) valid.set(settings.data.address, settings.data);
        else errors.push({ line: row.line, message: describeSettingsError(settings.error).replace(/\n/g, '; ') });
      }
      const rt = await context.runtime();
      const now = rt.now();
      const outcome = await rt.repos.accounts.importMany([...valid.values()].map((s) => newTrackedAccount(s, now)));
      errors.sort((a, b) => a.line - b.line);
      if (options.json) printJson(io, { created: outcome.created, updated: outcome.updated, errors });
      else {
        for (const e of errors) io.err(`${file}:${e.line}: ${e.message}\n`);
        io.out(`imported ${outcome.created.length + outcome.updated.length} accounts (${outcome.created.length} new, ${outcome.updated.length} updated); ${errors.length} rows rejected\n`);
      }
      if (errors.length > 0) throw new Error(`${errors.length} of ${parsed.rows.length + parsed.errors.length} rows rejected (see above); the valid rows were imported`);
    });

  accounts
    .command('list')
    .description('list tracked accounts')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const all = await rt.repos.accounts.list();
      const now = rt.now();
      if (options.json) return printJson(io, all.map((a) => publicView(a, now)));
      if (all.length === 0) return io.out('no accounts tracked yet; add one with "sentinel accounts add <address> --email you@example.com"\n');
      io.out(
        formatTable(
          ['ADDRESS', 'LABEL', 'INTERVAL', 'STATUS', 'RECIPIENTS', 'NEXT POLL'],
          all.map((a) => [a.address, a.label ?? '', a.interval, shown(a, now).status, a.emails.join(', '), new Date(nextPollAt(a, now)).toISOString()]),
        ),
      );
    });

  accounts
    .command('show')
    .argument('<address>')
    .description("show one account's settings and schedule")
    .option('--json', 'print JSON')
    .action(async (address: string, options: { json?: boolean }) => {
      const rt = await context.runtime();
      const account = await rt.repos.accounts.get(parseAddress(address));
      if (!account) throw new Error(`${parseAddress(address)} is not tracked`);
      const now = rt.now();
      if (options.json) return printJson(io, publicView(account, now));
      const rows: [string, string][] = [
        ['address', account.address],
        ['label', account.label ?? '-'],
        ['recipients', account.emails.join(', ')],
        ['interval', account.interval],
        ['drawdown levels', account.drawdownThresholds.length ? account.drawdownThresholds.map((l) => `${l}%`).join(', ') : 'off'],
        ['daily report', `${account.reportAt} ${account.timezone}`],
        ['expiry warnings', account.expiryWarnDays.length ? `${account.expiryWarnDays.join(', ')} days before` : 'off'],
        ['signer', account.signer ?? 'none (no one-click revocation)'],
        ['delegate watch', account.delegateWatch ? `every ${account.delegateWatch}` : 'with each poll'],
        ['status', shownStatus(account, now)],
        ['tracked since', new Date(account.createdAt).toISOString()],
        ['next poll', new Date(nextPollAt(account, now)).toISOString()],
        ['next report', new Date(account.nextReportAt).toISOString()],
      ];
      io.out(rows.map(([k, v]) => `${k.padEnd(16)} ${v}`).join('\n') + '\n');
    });

  accounts
    .command('remove')
    .argument('<address>')
    .description('stop tracking an account (its stored history expires by retention)')
    .action(async (address: string) => {
      const rt = await context.runtime();
      const checksummed = parseAddress(address);
      const outcome = await rt.repos.accounts.remove(checksummed);
      if (outcome.kind === 'not-found') throw new Error(`${checksummed} is not tracked`);
      io.out(`stopped tracking ${checksummed}\n`);
    });
}

/** The account as shown to users (`--json`): settings, status and schedule. */
function publicView(a: TrackedAccount, now: number): Record<string, unknown> {
  return {
    address: a.address,
    label: a.label,
    emails: a.emails,
    interval: a.interval,
    drawdownThresholds: a.drawdownThresholds,
    reportAt: a.reportAt,
    timezone: a.timezone,
    expiryWarnDays: a.expiryWarnDays,
    signer: a.signer,
    delegateWatch: a.delegateWatch,
    status: shown(a, now).status,
    statusReason: shown(a, now).reason,
    createdAt: new Date(a.createdAt).toISOString(),
    nextDueAt: new Date(nextPollAt(a, now)).toISOString(),
    nextReportAt: new Date(a.nextReportAt).toISOString(),
  };
}

/** The stored status, or `stale` while the account's pending poll is overdue by more than an interval. */
function shown(account: TrackedAccount, now: number): { status: string; reason: string | null } {
  const overdue = account.status === 'ok' ? pollOverdue(account, now) : null;
  return { status: overdue?.status ?? account.status, reason: overdue?.reason ?? account.statusReason };
}

function shownStatus(account: TrackedAccount, now: number): string {
  const { status, reason } = shown(account, now);
  return reason ? `${status}: ${reason}` : status;
}
