import type { Command } from 'commander';
import * as z from 'zod';
import type { TrackedAccount } from '../../functions/domain/account';
import { defaultRecipientSettings, recipientSettingsSchema, type ReportMode, type Weekday } from '../../functions/domain/recipientSettings';
import { saveRecipient } from '../../functions/services/report/schedule/saveRecipient';
import type { RecipientRecord } from '../../functions/store/recipientsRepository';
import type { Suppression } from '../../functions/store/suppressionRepository';
import type { CliContext } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';
import { readRecipientOptions, type RecipientUpdateOptions } from '../recipientOptions';
import { byLabelThenAddress, suppressionNote } from '../recipientView';

/** One recipient: the address, the accounts that mail it, its suppression if mail to it is stopped, and its delivery settings. */
interface Recipient {
  email: string;
  accounts: { address: string; label: string | null }[];
  suppressed: { reason: Suppression['reason']; since: string } | null;
  mode: ReportMode;
  timezone: string | null;
  reportAt: string | null;
  weekly: Weekday | null;
  monthly: number | null;
  /** Its own schedule (digest, zone or time override, weekly or monthly summary): the clock it runs at and its next run. */
  schedule: { timezone: string; reportAt: string; next: string } | null;
}

const emailSchema = z.email();

function parseEmail(value: string): string {
  const parsed = emailSchema.safeParse(value.trim());
  if (!parsed.success) throw new UsageError(`"${value}" is not an email address`);
  return parsed.data;
}

function recipientsOf(
  accounts: readonly TrackedAccount[],
  suppressions: ReadonlyMap<string, Suppression>,
  records: ReadonlyMap<string, RecipientRecord>,
): Recipient[] {
  const byEmail = new Map<string, Recipient>();
  for (const account of [...accounts].sort(byLabelThenAddress)) {
    for (const email of account.emails) {
      const key = email.toLowerCase();
      const entry = byEmail.get(key) ?? recipientView(email, suppressions.get(key), records.get(key) ?? null);
      entry.accounts.push({ address: account.address, label: account.label });
      byEmail.set(key, entry);
    }
  }
  return [...byEmail.values()].sort((a, b) => a.email.toLowerCase().localeCompare(b.email.toLowerCase()));
}

function recipientView(email: string, suppression: Suppression | undefined, record: RecipientRecord | null): Recipient {
  const settings = record ?? defaultRecipientSettings(email);
  return {
    email,
    accounts: [],
    suppressed: view(suppression),
    mode: settings.mode,
    timezone: settings.timezone,
    reportAt: settings.reportAt,
    weekly: settings.weekly,
    monthly: settings.monthly,
    schedule:
      record?.clock && record.nextReportAt !== null
        ? { timezone: record.clock.timezone, reportAt: record.clock.reportAt, next: new Date(record.nextReportAt).toISOString() }
        : null,
  };
}

function view(s: Suppression | undefined): Recipient['suppressed'] {
  return s ? { reason: s.reason, since: new Date(s.suppressedAt).toISOString() } : null;
}

const accountName = (a: { address: string; label: string | null }) => (a.label ? `${a.label} (${a.address})` : a.address);

/** `digest at 08:00 Europe/Berlin, weekly mon, monthly 1` */
function delivery(r: Recipient): string {
  const own = r.timezone !== null || r.reportAt !== null ? ` at ${r.reportAt ?? "the account's time"} ${r.timezone ?? "in the account's zone"}` : '';
  const parts = [`${r.mode}${own}`];
  if (r.weekly !== null) parts.push(`weekly ${r.weekly}`);
  if (r.monthly !== null) parts.push(`monthly ${r.monthly}`);
  return parts.join(', ');
}

/**
 * `sentinel recipients list|show|update|unsuppress`: the addresses tracked accounts mail, how each
 * gets its reports (per account or one digest, its own zone and time, weekly and monthly
 * summaries), whether mail to it is stopped (unsubscribe, bounce, complaint) and why, and lifting
 * such a stop.
 */
export function register(program: Command, context: CliContext): void {
  const recipients = program.command('recipients').description('recipients of tracked accounts: delivery settings and suppressions');
  const { io } = context;

  recipients
    .command('list')
    .description('every recipient, the accounts that mail it, how it gets its reports, and whether mail to it is suppressed')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const accounts = await rt.repos.accounts.list();
      const emails = accounts.flatMap((a) => a.emails);
      const all = recipientsOf(accounts, await rt.repos.suppressions.lookup(emails), await rt.repos.recipients.getMany(emails));
      if (options.json) return printJson(io, all);
      if (all.length === 0) return io.out('no recipients: no account is tracked yet\n');
      io.out(
        formatTable(
          ['EMAIL', 'ACCOUNTS', 'DELIVERY', 'SUPPRESSED'],
          all.map((r) => [
            r.email,
            r.accounts.map(accountName).join(', '),
            delivery(r),
            r.suppressed ? `${r.suppressed.reason} since ${r.suppressed.since.slice(0, 10)}` : '-',
          ]),
        ),
      );
      const stopped = all.filter((r) => r.suppressed).length;
      io.out(`${plural(all.length, 'recipient')}, ${stopped} suppressed\n`);
    });

  recipients
    .command('show')
    .argument('<email>')
    .description('one recipient: its accounts, how it gets its reports, and whether mail to it is suppressed')
    .option('--json', 'print JSON')
    .action(async (emailArg: string, options: { json?: boolean }) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      const accounts = (await rt.repos.accounts.list()).filter((a) => a.emails.some((e) => e.toLowerCase() === email.toLowerCase()));
      const suppression = (await rt.repos.suppressions.lookup([email])).get(email.toLowerCase());
      const record = await rt.repos.recipients.get(email);
      if (accounts.length === 0 && !suppression && !record) throw new Error(`${email} is not a recipient of any tracked account`);
      const records = new Map(record ? [[record.email, record]] : []);
      const found =
        recipientsOf(accounts, new Map(suppression ? [[suppression.email, suppression]] : []), records)[0] ?? recipientView(email, suppression, record);
      if (options.json) return printJson(io, found);
      io.out(`${showLines(found, suppression).join('\n')}\n`);
    });

  recipients
    .command('update')
    .argument('<email>')
    .description("how a recipient gets its reports: one digest for all its accounts, its own time and zone (overriding its accounts'), weekly and monthly summaries")
    .option('--digest <on|off>', 'on: one email covering all its accounts; off: one report per account (default)')
    .option('--report-at <HH:MM>', "its local report time, overriding its accounts' (off: the accounts' own)")
    .option('--timezone <zone>', "its IANA time zone, overriding its accounts' (off: the accounts' own)")
    .option('--weekly <day>', 'the weekly summary on this day (mon..sun), or off')
    .option('--monthly <day>', 'the monthly summary on this day of the month (1-28), or off')
    .option('--json', 'print the recipient as JSON')
    .action(async (emailArg: string, options: RecipientUpdateOptions & { json?: boolean }) => {
      const email = parseEmail(emailArg);
      const { json, ...given } = options;
      const changes = readRecipientOptions(given);
      if (Object.keys(changes).length === 0) throw new UsageError('nothing to update: give at least one of --digest, --report-at, --timezone, --weekly, --monthly');
      const rt = await context.runtime();
      const previous = await rt.repos.recipients.get(email);
      const { email: key, mode, timezone, reportAt, weekly, monthly } = previous ?? defaultRecipientSettings(email);
      const settings = recipientSettingsSchema.parse({ email: key, mode, timezone, reportAt, weekly, monthly, ...changes });
      const accounts = (await rt.repos.accounts.list()).filter((a) => a.emails.some((e) => e.trim().toLowerCase() === settings.email));
      const saved = await saveRecipient(rt.repos.recipients, settings, accounts, previous, rt.now());
      const suppression = (await rt.repos.suppressions.lookup([email])).get(settings.email);
      const found = recipientsOf(accounts, new Map(suppression ? [[suppression.email, suppression]] : []), new Map([[saved.email, saved]]))[0] ??
        recipientView(settings.email, suppression, saved);
      if (json) return printJson(io, found);
      io.out(`updated ${settings.email}: ${delivery(found)}${found.schedule ? `; next at ${found.schedule.next}` : ''}\n`);
      if (accounts.length === 0) io.err(`note: no tracked account mails ${settings.email} yet; the settings apply once one does\n`);
    });

  recipients
    .command('unsuppress')
    .argument('<email>')
    .description('lift a suppression so the address gets mail again (a bounce or complaint needs --force)')
    .option('--force', 'also lift a bounce or complaint suppression')
    .action(async (emailArg: string, options: { force?: boolean }) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      const suppression = (await rt.repos.suppressions.lookup([email])).get(email.toLowerCase());
      if (!suppression) return io.out(`${email} is not suppressed; nothing to lift\n`);
      if (suppression.reason !== 'unsubscribe') {
        if (!options.force) {
          throw new Error(
            `${email} is suppressed because of a ${suppression.reason}; mailing it again can hurt the sender's reputation. Lift it with --force only if the address is known to work and wants the mail`,
          );
        }
        io.err(`warning: lifting a ${suppression.reason} suppression of ${email}; if mail to it ${suppression.reason === 'bounce' ? 'bounces' : 'draws a complaint'} again it is suppressed again\n`);
      }
      await rt.repos.suppressions.unsuppress(email);
      io.out(`${email} gets mail again (was suppressed: ${suppression.reason})\n`);
    });
}

function showLines(r: Recipient, suppression: Suppression | undefined): string[] {
  return [
    `email       ${r.email}`,
    `delivery    ${r.mode === 'digest' ? 'digest (one email for all its accounts)' : 'per-account (one report per account)'}`,
    `timezone    ${r.timezone ?? "its accounts' own"}`,
    `report-at   ${r.reportAt ?? "its accounts' own"}`,
    `weekly      ${r.weekly ?? 'off'}`,
    `monthly     ${r.monthly ?? 'off'}`,
    `schedule    ${r.schedule ? `own, at ${r.schedule.reportAt} ${r.schedule.timezone}; next ${r.schedule.next}` : "its accounts' report times"}`,
    `suppressed  ${suppression ? `${suppressionNote(suppression).replace(/^suppressed: /, '')}${liftHint(suppression)}` : 'no'}`,
    `accounts    ${r.accounts.length === 0 ? '-' : r.accounts.map(accountName).join('\n            ')}`,
  ];
}

function liftHint(s: Suppression): string {
  return s.reason === 'unsubscribe' ? ' (lift with: sentinel recipients unsuppress <email>)' : ' (lift with: sentinel recipients unsuppress <email> --force)';
}
