import type { Command } from 'commander';
import { parseAddressArgument as parseAddress } from '../readAddress';
import * as z from 'zod';
import type { Address } from '../../functions/domain/address';
import { formatTime } from '../../functions/mail/render/format';
import { sesSenderFrom } from '../../functions/runtime/factories';
import { deliverNotification, type DeliverNotificationDeps, type NotificationOutcome } from '../../functions/services/notify/deliverNotification';
import { memoryCounters } from '../../functions/shared/observability';
import type { TrackedAccount } from '../../functions/domain/account';
import { localEmailRenderer, localMailGovernor } from '../../local/localSystem';
import { currentDrawdown } from '../../functions/services/status/currentDrawdown';
import { alertsOverview, hasOpenBreach, type BreachRow, type SnoozeRow } from '../alertsOverview';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';
import { parseSnoozeDuration } from '../parseSnoozeDuration';
import { operator } from '../operator';
import { recipientKey } from '../../functions/domain/recipientSnoozes';
import { snoozeByOperator } from '../../functions/services/snooze/snoozeByOperator';
import { unsnoozeByOperator } from '../../functions/services/snooze/unsnoozeByOperator';

/**
 * `sentinel alerts list|snooze|unsnooze`: the running snoozes and open breaches; an operator's
 * snooze of drawdown alerts, account-wide or for one recipient (each recipient snoozed is told by
 * email), and lifting snoozes, both audited. A recipient also snoozes for themselves, through the
 * link in an alert.
 */
export function register(program: Command, context: CliContext): void {
  const alerts = program.command('alerts').description('drawdown alert snoozes and open breaches');
  alerts
    .command('list')
    .description('every running snooze (who, until when) and every open breach (account, level, since, the drawdown at the breach and now)')
    .option('--account <address>', 'only this account')
    .option('--json', 'print one JSON document')
    .action(async (options: { account?: string; json?: boolean }) => {
      const only = options.account === undefined ? null : parseAddress('--account', options.account);
      const rt = await context.runtime();
      const accounts = only === null ? await rt.repos.accounts.list() : [await tracked(rt, only)];
      const now = rt.now();
      const rows = await Promise.all(
        accounts.map(async (account) => {
          const rules = await rt.repos.alerts.listWithControls(account.address);
          // The drawdown now is read only for an account with an open breach (one range query of its stored points).
          const current = hasOpenBreach(rules) ? await currentDrawdown(rt.repos.curves, account, now) : null;
          return { account, ...alertsOverview(account, rules, now, current?.currentPct ?? null) };
        }),
      );
      const snoozes = rows.flatMap((r) => r.snoozes.map((s) => ({ row: s, zone: r.account.timezone })));
      const breaches = rows.flatMap((r) => r.breaches.map((b) => ({ row: b, zone: r.account.timezone })));
      if (options.json) {
        return printJson(context.io, { snoozes: snoozes.map(({ row }) => snoozeJson(row)), breaches: breaches.map(({ row }) => breachJson(row)) });
      }
      context.io.out(
        snoozes.length === 0
          ? 'no snooze running\n'
          : `snoozes\n${formatTable(
              ['LABEL', 'ACCOUNT', 'WHO', 'UNTIL'],
              snoozes.map(({ row, zone }) => [row.label ?? '', row.account, row.who === 'all' ? 'all recipients' : row.who, formatTime(row.until, zone)]),
            )}`,
      );
      context.io.out(
        breaches.length === 0
          ? 'no open breach\n'
          : `open breaches\n${formatTable(
              ['LABEL', 'ACCOUNT', 'LEVEL', 'SINCE', 'AT BREACH', 'NOW'],
              breaches.map(({ row, zone }) => [
                row.label ?? '',
                row.account,
                `${row.level}%`,
                row.since === null ? '-' : formatTime(row.since, zone),
                percent(row.atBreachPct),
                percent(row.nowPct),
              ]),
            )}`,
      );
    });

  alerts
    .command('snooze')
    .argument('<address>', 'a tracked account')
    .requiredOption('--for <dur>', 'how long: 30m, 24h, 7d (at most 30d)')
    .option('--recipient <email>', 'snooze them for this recipient of the account only (the others keep getting them)')
    .option('--json', 'print one JSON document')
    .description("snooze the account's drawdown alerts for every recipient (or --recipient only), tell each one snoozed by email; audited")
    .action(async (addressArg: string, options: { for: string; recipient?: string; json?: boolean }) => {
      const address = parseAddress('address', addressArg);
      const durationMs = parseSnoozeDuration(options.for);
      const asked = options.recipient === undefined ? null : parseEmail(options.recipient);
      const rt = await context.runtime();
      const account = await tracked(rt, address);
      // The recipient as the account lists it (typed in any case).
      const recipient = asked === null ? null : (account.emails.find((e) => recipientKey(e) === recipientKey(asked)) ?? null);
      if (asked !== null && recipient === null)
        throw new UsageError(`--recipient ${asked} is not a recipient of ${name(account)} (see "sentinel accounts show")`);
      // Built before anything is written: without mail settings, nothing is snoozed untold.
      const mail = await mailDeps(rt);
      const now = rt.now();
      const until = await snoozeByOperator(
        { alerts: rt.repos.alerts, audit: rt.repos.audit, history: rt.repos.history, now: () => now },
        { address, recipient, untilMs: now + durationMs, by: operator() },
      );
      const outcome = await deliverNotification(mail, {
        kind: 'account-snoozed',
        eventId: recipient === null ? `account-snoozed:${address}:${until}` : `recipient-snoozed:${address}:${recipientKey(recipient)}:${until}`,
        account: address,
        at: now,
        until,
        ...(recipient === null ? {} : { recipient }),
      });
      const told = toldText(outcome);
      const who = recipient ?? 'all';
      if (options.json) printJson(context.io, { account: address, who, until: new Date(until).toISOString(), kept: until > now + durationMs, notice: outcome });
      else {
        const kept = until > now + durationMs ? ' (a longer snooze was already running: the later end wins)' : '';
        const whom = recipient === null ? 'all recipients' : `${recipient} only`;
        context.io.out(`snoozed drawdown alerts of ${name(account)} for ${whom} until ${formatTime(until, account.timezone)}${kept}; ${told}\n`);
      }
      if (outcome.kind === 'failed') throw new Error(`the snooze is set, but the notice was refused: ${outcome.reason}`);
    });

  alerts
    .command('unsnooze')
    .argument('<address>', 'a tracked account')
    .option('--recipient <email>', "lift only this recipient's own snooze")
    .option('--json', 'print one JSON document')
    .description("lift the account-wide snooze and every recipient's (or only --recipient's); audited")
    .action(async (addressArg: string, options: { recipient?: string; json?: boolean }) => {
      const address = parseAddress('address', addressArg);
      const recipient = options.recipient === undefined ? null : parseEmail(options.recipient);
      const rt = await context.runtime();
      const account = await tracked(rt, address);
      const { accountWide, recipients } = await unsnoozeByOperator(
        { alerts: rt.repos.alerts, audit: rt.repos.audit, history: rt.repos.history, now: rt.now },
        { address, recipient, by: operator() },
      );
      if (options.json) return printJson(context.io, { account: address, accountWide, recipients });
      const lifted = [...(accountWide ? ['all recipients'] : []), ...recipients];
      context.io.out(
        lifted.length === 0
          ? `no running snooze of ${name(account)}${recipient === null ? '' : ` for ${recipient}`}: nothing lifted\n`
          : `lifted the snooze of ${name(account)} for ${lifted.join(', ')}\n`,
      );
    });
}

function parseEmail(value: string): string {
  const parsed = z.email().safeParse(value.trim());
  if (!parsed.success) throw new UsageError(`--recipient "${value}" is not an email address`);
  return parsed.data;
}

async function tracked(rt: CliRuntime, address: Address): Promise<TrackedAccount> {
  const account = await rt.repos.accounts.get(address);
  if (!account) throw new Error(`${address} is not tracked`);
  return account;
}

const name = (account: TrackedAccount): string => (account.label ? `${account.label} (${account.address})` : account.address);

/** The notify path of one email to each recipient, paced by the alert share of `MAIL_RATE` as in `collect`. */
async function mailDeps(rt: CliRuntime): Promise<DeliverNotificationDeps> {
  const counters = memoryCounters();
  return {
    repos: rt.repos,
    sender: localMailGovernor(rt.settings, counters).sender(sesSenderFrom(rt.settings), 'alert'),
    renderer: localEmailRenderer(rt.settings),
    links: await rt.links(),
    mailFrom: rt.settings.MAIL_FROM,
    log: rt.log,
    counters,
    now: () => rt.now(),
  };
}

function toldText(outcome: NotificationOutcome): string {
  switch (outcome.kind) {
    case 'sent':
      return `told ${plural(outcome.messages, 'recipient')} by email${outcome.failed > 0 ? ` (${outcome.failed} refused)` : ''}`;
    case 'duplicate':
      return 'every recipient was already told of this snooze';
    case 'skipped':
      return `nobody told: ${outcome.reason}`;
    case 'failed':
      return `nobody told: ${outcome.reason}`;
  }
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const snoozeJson = (s: SnoozeRow) => ({ account: s.account, label: s.label, who: s.who, until: iso(s.until) });
const percent = (pct: number | null): string => (pct === null ? '-' : `${pct.toFixed(2)}%`);
const breachJson = (b: BreachRow) => ({
  account: b.account,
  label: b.label,
  level: b.level,
  since: iso(b.since),
  atBreachPct: b.atBreachPct,
  nowPct: b.nowPct,
});
