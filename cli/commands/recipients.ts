import type { Command } from 'commander';
import * as z from 'zod';
import type { TrackedAccount } from '../../functions/domain/account';
import type { Suppression } from '../../functions/store/suppressionRepository';
import type { CliContext } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';
import { byLabelThenAddress, suppressionNote } from '../recipientView';

/** One recipient: the address, the accounts that mail it, and its suppression if mail to it is stopped. */
interface Recipient {
  email: string;
  accounts: { address: string; label: string | null }[];
  suppressed: { reason: Suppression['reason']; since: string } | null;
}

const emailSchema = z.email();

function parseEmail(value: string): string {
  const parsed = emailSchema.safeParse(value.trim());
  if (!parsed.success) throw new UsageError(`"${value}" is not an email address`);
  return parsed.data;
}

function recipientsOf(accounts: readonly TrackedAccount[], suppressions: ReadonlyMap<string, Suppression>): Recipient[] {
  const byEmail = new Map<string, Recipient>();
  for (const account of [...accounts].sort(byLabelThenAddress)) {
    for (const email of account.emails) {
      const key = email.toLowerCase();
      const entry = byEmail.get(key) ?? { email, accounts: [], suppressed: view(suppressions.get(key)) };
      entry.accounts.push({ address: account.address, label: account.label });
      byEmail.set(key, entry);
    }
  }
  return [...byEmail.values()].sort((a, b) => a.email.toLowerCase().localeCompare(b.email.toLowerCase()));
}

function view(s: Suppression | undefined): Recipient['suppressed'] {
  return s ? { reason: s.reason, since: new Date(s.suppressedAt).toISOString() } : null;
}

const accountName = (a: { address: string; label: string | null }) => (a.label ? `${a.label} (${a.address})` : a.address);

/**
 * `sentinel recipients list|show|unsuppress`: the addresses tracked accounts mail, whether mail to
 * each is stopped (unsubscribe, bounce, complaint) and why, and lifting such a stop.
 */
export function register(program: Command, context: CliContext): void {
  const recipients = program.command('recipients').description('recipients of tracked accounts and their suppressions');
  const { io } = context;

  recipients
    .command('list')
    .description('every recipient, the accounts that mail it, and whether mail to it is suppressed')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const accounts = await rt.repos.accounts.list();
      const all = recipientsOf(accounts, await rt.repos.suppressions.lookup(accounts.flatMap((a) => a.emails)));
      if (options.json) return printJson(io, all);
      if (all.length === 0) return io.out('no recipients: no account is tracked yet\n');
      io.out(
        formatTable(
          ['EMAIL', 'ACCOUNTS', 'SUPPRESSED'],
          all.map((r) => [r.email, r.accounts.map(accountName).join(', '), r.suppressed ? `${r.suppressed.reason} since ${r.suppressed.since.slice(0, 10)}` : '-']),
        ),
      );
      const stopped = all.filter((r) => r.suppressed).length;
      io.out(`${plural(all.length, 'recipient')}, ${stopped} suppressed\n`);
    });

  recipients
    .command('show')
    .argument('<email>')
    .description('one recipient: its accounts and whether mail to it is suppressed')
    .option('--json', 'print JSON')
    .action(async (emailArg: string, options: { json?: boolean }) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      const accounts = (await rt.repos.accounts.list()).filter((a) => a.emails.some((e) => e.toLowerCase() === email.toLowerCase()));
      const suppression = (await rt.repos.suppressions.lookup([email])).get(email.toLowerCase());
      if (accounts.length === 0 && !suppression) throw new Error(`${email} is not a recipient of any tracked account`);
      const found = recipientsOf(accounts, new Map(suppression ? [[suppression.email, suppression]] : []))[0] ?? {
        email,
        accounts: [],
        suppressed: view(suppression),
      };
      if (options.json) return printJson(io, found);
      const lines = [
        `email       ${found.email}`,
        `suppressed  ${suppression ? `${suppressionNote(suppression).replace(/^suppressed: /, '')}${liftHint(suppression)}` : 'no'}`,
        `accounts    ${found.accounts.length === 0 ? '-' : found.accounts.map(accountName).join('\n            ')}`,
      ];
      io.out(`${lines.join('\n')}\n`);
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

function liftHint(s: Suppression): string {
  return s.reason === 'unsubscribe' ? ' (lift with: sentinel recipients unsuppress <email>)' : ' (lift with: sentinel recipients unsuppress <email> --force)';
}
