import type { Command } from 'commander';
import * as z from 'zod';
import { normalEmail } from '../../functions/domain/deskScope';
import { linkMinterFrom } from '../../functions/runtime/linkMinterFrom';
import { endEverySession } from '../../functions/services/desk/deskSessions';
import { mayUseDesk } from '../../functions/services/desk/deskViewer';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { printJson, UsageError } from '../output';

function parseEmail(value: string): string {
  const parsed = z.email().safeParse(value.trim());
  if (!parsed.success) throw new UsageError(`"${value}" is not an email address`);
  return normalEmail(parsed.data);
}

function scopeDeps(rt: CliRuntime) {
  return { accounts: rt.repos.accounts, recipients: rt.repos.recipients, operators: rt.repos.deskOperators, operatorEmail: rt.settings.OPERATOR_EMAIL ?? null };
}

/**
 * `sentinel desk link <email> [--json]`: prints a sign-in link to the desk page for a recipient (or
 * an operator): single use, 15 minutes; `--json` prints `{"url": ...}`.
 *
 * `sentinel desk operators add|remove|list [<email>]`: who sees every account on the desk page,
 * besides `OPERATOR_EMAIL`.
 */
export function register(program: Command, context: CliContext): void {
  const { io } = context;
  const desk = program.command('desk').description('the desk page: sign-in links and who sees every account');
  desk
    .command('link')
    .argument('<email>', 'a recipient of at least one account, or an operator')
    .option('--json', 'print {"url": ...} as one JSON document')
    .description('print a sign-in link to the desk page (single use, valid 15 minutes)')
    .action(async (emailArg: string, options: { json?: boolean }) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      if (!(await mayUseDesk(scopeDeps(rt), email))) {
        throw new Error(`${email} receives no account and is no operator (OPERATOR_EMAIL, or "sentinel desk operators add"); no link printed`);
      }
      const minter = await linkMinterFrom(rt.settings, ['desk-sign-in']);
      const url = minter.build({ purpose: 'desk-sign-in', email }, rt.now());
      if (options.json) printJson(io, { url });
      else io.out(`${url}\n`);
    });

  const operators = desk.command('operators').description('who sees every account on the desk page (besides OPERATOR_EMAIL)');
  operators
    .command('add')
    .argument('<email>')
    .description('let the address see every account on the desk page')
    .action(async (emailArg: string) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      await rt.repos.deskOperators.add(email);
      io.out(`${email} is a desk operator: it sees every account\n`);
    });
  operators
    .command('remove')
    .argument('<email>')
    .description('make the address see only the accounts it receives again')
    .action(async (emailArg: string) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      await rt.repos.deskOperators.remove(email);
      const fixed = rt.settings.OPERATOR_EMAIL !== undefined && normalEmail(rt.settings.OPERATOR_EMAIL) === email;
      io.out(`${email} is no desk operator${fixed ? ' on the list, but stays one as OPERATOR_EMAIL' : ''}\n`);
    });
  operators
    .command('list')
    .option('--json', 'print {"operators": [...], "operatorEmail": ...} as one JSON document')
    .description('list the desk operators')
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const listed = await rt.repos.deskOperators.list();
      const fixed = rt.settings.OPERATOR_EMAIL === undefined ? null : normalEmail(rt.settings.OPERATOR_EMAIL);
      if (options.json) return printJson(io, { operators: listed, operatorEmail: fixed });
      if (fixed !== null) io.out(`${fixed} (OPERATOR_EMAIL)\n`);
      for (const email of listed.filter((e) => e !== fixed)) io.out(`${email}\n`);
      if (fixed === null && listed.length === 0) io.out('no desk operator: recipients see only the accounts they receive\n');
    });
}

/** `sentinel recipients revoke-sessions <email>`: ends every desk-page session of the address (and voids its unused sign-in links). */
export function registerRevokeSessions(recipients: Command, context: CliContext): void {
  recipients
    .command('revoke-sessions')
    .argument('<email>')
    .description('end every desk-page session of the address, and void the sign-in links it was sent')
    .action(async (emailArg: string) => {
      const email = parseEmail(emailArg);
      const rt = await context.runtime();
      await endEverySession({ recipients: rt.repos.deskRecipients }, email, rt.now());
      context.io.out(`ended every desk-page session of ${email}; its sign-in links sent until now no longer work\n`);
    });
}
