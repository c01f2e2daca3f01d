import { Option, type Command } from 'commander';
import { registerRevokeSessions } from './desk';
import * as z from 'zod';
import type { TrackedAccount } from '../../functions/domain/account';
import { MAIL_CATEGORIES, type MailCategory } from '../../functions/domain/mailCategory';
import { defaultRecipientSettings, recipientSettingsSchema, type RecipientReportMode, type Weekday } from '../../functions/domain/recipientSchedule';
import { saveRecipient } from '../../functions/services/report/schedule/saveRecipient';
import type { RecipientRecord } from '../../functions/store/recipientsRepository';
import type { Suppression } from '../../functions/store/suppressionRepository';
import type { CliContext } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';
import { categoriesText, categoryChange, readCategoriesOption } from '../recipientCategories';
import { readRecipientOptions, type RecipientUpdateOptions } from '../recipientOptions';
import { formatRecipients, parseRecipients, RECIPIENT_FORMATS, type RecipientFormat } from '../recipientTransfer';
import { readTextFile } from '../readTextFile';
import { securityOffLine, tellSecurityOff } from '../securityOffNotice';
import { accountsSummary, byLabelThenAddress, suppressionNote } from '../recipientView';

/** One recipient: the address, the accounts that mail it, its suppression if mail to it is stopped, and its delivery settings. */
interface Recipient {
  email: string;
  accounts: { address: string; label: string | null }[];
  suppressed: { reason: Suppression['reason']; since: string } | null;
  mode: RecipientReportMode;
  timezone: string | null;
  reportAt: string | null;
  weekly: Weekday | null;
  monthly: number | null;
  /** Its own schedule (digest, zone or time override, weekly or monthly summary): the clock it runs at and its next run. */
  schedule: { timezone: string; reportAt: string; next: string } | null;
  /** The mail categories it gets, and those it opted out of (unsubscribe links, the preferences page, `--categories`). */
  categories: MailCategory[];
  optedOut: MailCategory[];
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
  optOuts: ReadonlyMap<string, readonly MailCategory[]>,
): Recipient[] {
  const byEmail = new Map<string, Recipient>();
  for (const account of [...accounts].sort(byLabelThenAddress)) {
    for (const email of account.emails) {
      const key = email.toLowerCase();
      const entry = byEmail.get(key) ?? recipientView(email, suppressions.get(key), records.get(key) ?? null, optOuts.get(key) ?? []);
      entry.accounts.push({ address: account.address, label: account.label });
      byEmail.set(key, entry);
    }
  }
  return [...byEmail.values()].sort((a, b) => a.email.toLowerCase().localeCompare(b.email.toLowerCase()));
}

/** `email` itself, with its own settings and suppression, and the accounts (of `accounts`) that mail it. */
function recipientOf(
  email: string,
  accounts: readonly TrackedAccount[],
  suppression: Suppression | undefined,
  record: RecipientRecord | null,
  optedOut: readonly MailCategory[],
): Recipient {
  const key = email.trim().toLowerCase();
  const found = recipientView(email, suppression, record, optedOut);
  for (const account of [...accounts].sort(byLabelThenAddress)) {
    if (account.emails.some((e) => e.trim().toLowerCase() === key)) found.accounts.push({ address: account.address, label: account.label });
  }
  return found;
}

function recipientView(email: string, suppression: Suppression | undefined, record: RecipientRecord | null, optedOut: readonly MailCategory[]): Recipient {
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
    categories: MAIL_CATEGORIES.filter((category) => !optedOut.includes(category)),
    optedOut: [...optedOut],
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
      const [suppressions, records, optOuts] = await Promise.all([
        rt.repos.suppressions.lookup(emails),
        rt.repos.recipients.getMany(emails),
        rt.repos.preferences.optOutsOf(emails),
      ]);
      const all = recipientsOf(accounts, suppressions, records, optOuts);
      if (options.json) return printJson(io, all);
      if (all.length === 0) return io.out('no recipients: no account is tracked yet\n');
      io.out(
        formatTable(
          ['EMAIL', 'ACCOUNTS', 'DELIVERY', 'CATEGORIES', 'SUPPRESSED'],
          all.map((r) => [
            r.email,
            accountsSummary(r.accounts),
            delivery(r),
            categoriesText(r.optedOut),
            r.suppressed ? `${r.suppressed.reason} since ${r.suppressed.since.slice(0, 10)}` : '-',
          ]),
        ),
      );
      const stopped = all.filter((r) => r.suppressed).length;
      const optedOut = all.filter((r) => !r.suppressed && r.optedOut.length > 0).length;
      io.out(`${plural(all.length, 'recipient')}, ${stopped} suppressed, ${optedOut} more opted out of some categories\n`);
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
      const [record, optedOut] = await Promise.all([rt.repos.recipients.get(email), rt.repos.preferences.optOuts(email)]);
      if (accounts.length === 0 && !suppression && !record && optedOut.length === 0) throw new Error(`${email} is not a recipient of any tracked account`);
      const found = recipientOf(email, accounts, suppression, record, optedOut);
      if (options.json) return printJson(io, found);
      io.out(`${showLines(found, suppression).join('\n')}\n`);
    });

  recipients
    .command('update')
    .argument('<email>')
    .description(
      "how a recipient gets its reports: one digest for all its accounts, its own time and zone (overriding its accounts'), weekly and monthly summaries",
    )
    .option('--digest <on|off>', 'on: one email covering all its accounts; off: one report per account (default)')
    .option('--report-at <HH:MM>', "its local report time, overriding its accounts' (off: the accounts' own)")
    .option('--timezone <zone>', "its IANA time zone, overriding its accounts' (off: the accounts' own)")
    .option('--weekly <day>', 'the weekly summary on this day (mon..sun), or off')
    .option('--monthly <day>', 'the monthly summary on this day of the month (1-28), or off')
    .option('--categories <list>', `the mail it gets: ${MAIL_CATEGORIES.join(',')} or a subset (or none); the others are opted out of`)
    .option('--force', 'allow --categories to turn security notices off')
    .option('--json', 'print the recipient as JSON')
    .action(async (emailArg: string, options: RecipientUpdateOptions & { categories?: string; force?: boolean; json?: boolean }) => {
      const email = parseEmail(emailArg);
      const { json, categories, force, ...given } = options;
      const changes = readRecipientOptions(given);
      const received = categories === undefined ? undefined : readCategoriesOption(categories);
      if (Object.keys(changes).length === 0 && received === undefined) {
        throw new UsageError('nothing to update: give at least one of --digest, --report-at, --timezone, --weekly, --monthly, --categories');
      }
      const rt = await context.runtime();
      const [previous, optOuts] = await Promise.all([rt.repos.recipients.get(email), rt.repos.preferences.optOuts(email)]);
      const change = received === undefined ? null : categoryChange(optOuts, received, { force: force === true });
      const { email: key, mode, timezone, reportAt, weekly, monthly } = previous ?? defaultRecipientSettings(email);
      const settings = recipientSettingsSchema.parse({ email: key, mode, timezone, reportAt, weekly, monthly, ...changes });
      const accounts = (await rt.repos.accounts.list()).filter((a) => a.emails.some((e) => e.trim().toLowerCase() === settings.email));
      const saved = Object.keys(changes).length === 0 ? previous : await saveRecipient(rt.repos.recipients, settings, accounts, previous, rt.now());
      if (change) {
        await rt.repos.preferences.setOptOuts(settings.email, change.optedOut);
        if (change.securityTurnedOff) io.err(securityOffLine(settings.email, await tellSecurityOff(rt, settings.email, accounts[0]?.address ?? null)));
      }
      const suppression = (await rt.repos.suppressions.lookup([email])).get(settings.email);
      const found = recipientOf(settings.email, accounts, suppression, saved, change?.optedOut ?? optOuts);
      if (json) return printJson(io, found);
      const categoriesPart = change || found.optedOut.length > 0 ? `; categories ${categoriesText(found.optedOut)}` : '';
      io.out(`updated ${settings.email}: ${delivery(found)}${categoriesPart}${found.schedule ? `; next at ${found.schedule.next}` : ''}\n`);
      if (accounts.length === 0) io.err(`note: no tracked account mails ${settings.email} yet; the settings apply once one does\n`);
    });

  recipients
    .command('export')
    .description("print every recipient's delivery settings and mail categories in the import format (recipients import reads it back unchanged)")
    .addOption(new Option('--format <format>', 'csv or jsonl (JSON lines)').choices(RECIPIENT_FORMATS).default('csv'))
    .action(async (options: { format: RecipientFormat }) => {
      const rt = await context.runtime();
      const accounts = await rt.repos.accounts.list();
      const emails = [...new Set(accounts.flatMap((a) => a.emails.map((e) => e.trim().toLowerCase())))].sort();
      const [records, optOuts] = await Promise.all([rt.repos.recipients.getMany(emails), rt.repos.preferences.optOutsOf(emails)]);
      const setups = emails.map((email) => {
        const { mode, timezone, reportAt, weekly, monthly } = records.get(email) ?? defaultRecipientSettings(email);
        const optedOut = optOuts.get(email) ?? [];
        return { settings: { email, mode, timezone, reportAt, weekly, monthly }, categories: MAIL_CATEGORIES.filter((c) => !optedOut.includes(c)) };
      });
      io.out(formatRecipients(setups, options.format));
    });

  recipients
    .command('import')
    .argument(
      '<file>',
      'CSV with a header row (email,digest,report_at,timezone,weekly,monthly,categories; categories separated by ";") or JSON lines with the same keys, as recipients export writes',
    )
    .description(
      "set many recipients' delivery settings and mail categories at once: a column the file lacks leaves that setting as it is; a bad row is left out, named by its line and column, and the other rows are imported",
    )
    .option('--force', 'allow rows that turn security notices off')
    .action(async (file: string, options: { force?: boolean }) => {
      const { rows, errors } = parseRecipients(file, await readTextFile(file));
      const rt = await context.runtime();
      const accounts = await rt.repos.accounts.list();
      const emails = rows.map((r) => r.email);
      const [records, optOuts] = await Promise.all([rt.repos.recipients.getMany(emails), rt.repos.preferences.optOutsOf(emails)]);
      // Every row checked whole before anything is written: a row with any problem is left out entirely.
      const plans = rows.flatMap((row) => {
        const previous = records.get(row.email) ?? null;
        const before = optOuts.get(row.email) ?? [];
        const { mode, timezone, reportAt, weekly, monthly } = previous ?? defaultRecipientSettings(row.email);
        const current = { email: row.email, mode, timezone, reportAt, weekly, monthly };
        const settings = recipientSettingsSchema.parse({ ...current, ...row.changes });
        let change = null;
        try {
          change = row.categories === null ? null : categoryChange(before, row.categories, { force: options.force === true });
        } catch (error) {
          errors.push({
            line: row.line,
            message: `column "categories": ${error instanceof Error ? error.message.replace(/^--categories: /, '') : String(error)}`,
          });
          return [];
        }
        const settingsChanged = JSON.stringify(settings) !== JSON.stringify(recipientSettingsSchema.parse(current));
        const categoriesChanged = change !== null && change.optedOut.join() !== before.join();
        return [{ row, previous, settings, change, settingsChanged, categoriesChanged }];
      });
      let changed = 0;
      for (const plan of plans) {
        if (plan.settingsChanged) {
          const mine = accounts.filter((a) => a.emails.some((e) => e.trim().toLowerCase() === plan.settings.email));
          await saveRecipient(rt.repos.recipients, plan.settings, mine, plan.previous, rt.now());
        }
        if (plan.categoriesChanged && plan.change) {
          await rt.repos.preferences.setOptOuts(plan.settings.email, plan.change.optedOut);
          if (plan.change.securityTurnedOff) {
            const on = accounts.find((a) => a.emails.some((e) => e.trim().toLowerCase() === plan.settings.email));
            io.err(securityOffLine(plan.settings.email, await tellSecurityOff(rt, plan.settings.email, on?.address ?? null)));
          }
        }
        if (plan.settingsChanged || plan.categoriesChanged) changed++;
      }
      errors.sort((a, b) => a.line - b.line);
      for (const e of errors) io.err(`${file}:${e.line}: ${e.message}\n`);
      if (plans.length > 0 || errors.length === 0)
        io.out(`imported ${plural(plans.length, 'recipient')}: ${changed} changed, ${plans.length - changed} unchanged\n`);
      if (errors.length > 0) {
        const rejected = `${errors.length} of ${plural(errors.length + plans.length, 'row')} rejected`;
        throw new Error(plans.length > 0 ? `${rejected} (see above); the other rows were imported` : `${rejected}; no recipient imported`);
      }
    });

  recipients
    .command('revoke-links')
    .argument('<email>')
    .description('void every preferences link of the address sent so far (its link epoch); its next emails carry new ones')
    .action(async (emailArg: string) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      await rt.repos.preferences.revokeLinks(email, rt.now());
      io.out(`revoked every preferences link of ${email.trim().toLowerCase()} issued until now; its page offers to email a new one\n`);
    });

  registerRevokeSessions(recipients, context);

  recipients
    .command('unsuppress')
    .argument('<email>')
    .description('lift a suppression so the address gets mail again (a bounce or complaint needs --force)')
    .option('--force', 'also lift a bounce or complaint suppression')
    .action(async (emailArg: string, options: { force?: boolean }) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      const [suppressions, optedOut] = await Promise.all([rt.repos.suppressions.lookup([email]), rt.repos.preferences.optOuts(email)]);
      const suppression = suppressions.get(email.toLowerCase());
      const categoriesNote =
        optedOut.length === 0
          ? ''
          : `; it has opted out of ${optedOut.join(', ')}, which unsuppress does not change (to get ${optedOut.length === 1 ? 'it' : 'them'} again: sentinel recipients update ${email} --categories ${MAIL_CATEGORIES.join(',')})`;
      if (!suppression) return io.out(`${email} is not suppressed${categoriesNote || '; nothing to lift'}\n`);
      if (suppression.reason !== 'unsubscribe') {
        if (!options.force) {
          throw new Error(
            `${email} is suppressed because of a ${suppression.reason}; mailing it again can hurt the sender's reputation. Lift it with --force only if the address is known to work and wants the mail`,
          );
        }
        io.err(
          `warning: lifting a ${suppression.reason} suppression of ${email}; if mail to it ${suppression.reason === 'bounce' ? 'bounces' : 'draws a complaint'} again it is suppressed again\n`,
        );
      }
      await rt.repos.suppressions.unsuppress(email);
      io.out(`${email} gets mail again (was suppressed: ${suppression.reason})${categoriesNote}\n`);
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
    `categories  ${categoriesText(r.optedOut)}`,
    `suppressed  ${suppression ? `${suppressionNote(suppression).replace(/^suppressed: /, '')}${liftHint(suppression)}` : 'no'}`,
    `accounts    ${r.accounts.length === 0 ? '-' : r.accounts.map(accountName).join('\n            ')}`,
  ];
}

function liftHint(s: Suppression): string {
  return s.reason === 'unsubscribe' ? ' (lift with: sentinel recipients unsuppress <email>)' : ' (lift with: sentinel recipients unsuppress <email> --force)';
}
