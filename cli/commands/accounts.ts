import { Option, type Command } from 'commander';
import { parseAddressArgument } from '../readAddress';
import {
  accountSettingsPatchSchema,
  accountSettingsSchema,
  columnOf,
  DEFAULT_SETTINGS,
  describeSettingsError,
  killSwitchText,
  SETTING_FIELDS,
  type AccountSettings,
  type AccountSettingsPatch,
} from '../../functions/domain/account';
import { applySettingsPatch, newTrackedAccount } from '../../functions/domain/trackedAccount';
import type { TrackedAccount } from '../../functions/domain/account';
import type { ChannelRecord } from '../../functions/domain/channel';
import { channelsRoutedTo } from '../../functions/domain/channelRouting';
import type { KnownDelegatesRepository } from '../../functions/store/knownDelegatesRepository';
import { nextPollAt } from '../../functions/domain/schedule';
import { SHOWN_STATUSES, shownStatus, type ShownStatus } from '../../functions/domain/shownStatus';
import { lastPollOf } from '../../functions/domain/lastPoll';
import { lastPollJson, lastPollText } from '../lastPollText';
import { withoutUrls } from '../../functions/shared/withoutUrls';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { syncRecipients } from '../recipientSync';
import { applyChannelEdit, brokenChannelNotes, checkChannelEdit } from '../accountChannels';
import { mapConcurrent } from '../../functions/shared/concurrency';
import { EXPORT_FORMATS, formatExport, type ExportFormat } from '../accountExport';
import { runImport, type ImportOptions } from '../accountImport';
import { readAddressFile } from '../addressFile';
import { changedFields } from '../importPlan';
import { byLabelThenAddress, recipientsWithSuppression, suppressionNote, type RecipientView } from '../recipientView';
import { formatTable, plural, printJson, UsageError } from '../output';
import { armedNote, armKnownKeys } from '../armKnownKeys';
import { REVOKE_UNKNOWN_MODES } from '../../functions/domain/revokeUnknownMode';
import { killSwitchStateText } from '../../functions/domain/killSwitchStateText';
import { unknownKeyDecisionText } from '../../functions/domain/unknownKeyDecisionText';
import { protectionStatus, settlementOf } from '../../functions/services/status/protectionStatus';
import { rearmKillSwitch } from '../../functions/services/protection/rearmKillSwitch';
import { operator } from '../operator';

interface SettingOptions {
  email?: string;
  addEmail?: string;
  removeEmail?: string;
  label?: string;
  interval?: string;
  drawdown?: string;
  reportAt?: string;
  timezone?: string;
  expiryWarnDays?: string;
  signer?: string;
  delegateWatch?: string;
  killSwitch?: string;
  killSwitchConfirm?: string;
  keepDelegate?: string;
  killSwitchWebSessions?: string;
  killSwitchDryRun?: string;
  revokeUnknown?: string;
  addChannel?: string;
  removeChannel?: string;
}

function withSettingOptions(command: Command, adding: boolean): Command {
  // `update` changes only what it is given: its help names no default, as if it reset one.
  const byDefault = (text: string) => (adding ? ` (default ${text})` : '');
  // Checked in the action rather than with requiredOption, so that a misspelt option is reported
  // as unknown (with a suggestion) instead of as a missing --email.
  return command
    .option('--email <a[,b]>', adding ? 'recipients, comma-separated (required)' : 'recipients, comma-separated (replaces them)')
    .option('--label <label>', 'a name for the account (at most 64 characters; "" removes it on update)')
    .option('--interval <interval>', `poll and curve interval: 1m 5m 15m 30m 1h 4h 1d${byDefault(DEFAULT_SETTINGS.interval)}`)
    .option(
      '--drawdown <levels>',
      `drawdown alert levels in percent, e.g. 5,10,20${byDefault(DEFAULT_SETTINGS.drawdownThresholds.join(','))}; "none" turns them off`,
    )
    .option('--report-at <HH:MM>', `local time of the daily report${byDefault(DEFAULT_SETTINGS.reportAt)}`)
    .option('--timezone <zone>', `IANA time zone of the report time, e.g. Europe/Berlin${byDefault(DEFAULT_SETTINGS.timezone)}`)
    .option(
      '--expiry-warn-days <days>',
      `days before a delegate expires to warn, e.g. 14,7,3,1${byDefault(DEFAULT_SETTINGS.expiryWarnDays.join(','))}; "none" turns them off`,
    )
    .option('--signer <ref>', 'where the owner key lives: kms:<key id or alias> or env:<VARIABLE>; enables one-click revocation')
    .option(
      '--delegate-watch <interval>',
      `how often delegates are checked, apart from the curve polls: 1m 5m 15m 30m 1h 4h 1d${byDefault(DEFAULT_SETTINGS.delegateWatch)}, or none (with each poll)`,
    )
    .option(
      '--kill-switch <pct>',
      `revoke every delegate automatically when the flow-adjusted drawdown reaches this percent, or off${byDefault('off')}; needs "sentinel protection on"`,
    )
    .option(
      '--kill-switch-confirm <when>',
      `next (or wait): the level must still hold at the next evaluation, an interval later; now: act on the first (both once the 1-minute curve shows it held two minutes)${byDefault(DEFAULT_SETTINGS.killSwitchConfirm)}`,
    )
    .option('--keep-delegate <addr[,addr]>', 'delegates the kill switch never revokes ("none" clears the list)')
    .option('--kill-switch-web-sessions <keep|revoke>', `whether the kill switch revokes web-session keys${byDefault(DEFAULT_SETTINGS.killSwitchWebSessions)}`)
    .option('--kill-switch-dry-run <on|off>', 'on: send the notice of what it would revoke, and revoke nothing')
    .option(
      '--revoke-unknown <mode>',
      `revoke a delegate no one announced as soon as it is seen: ${REVOKE_UNKNOWN_MODES.join(', ')}${byDefault(DEFAULT_SETTINGS.revokeUnknown)} (api-keys keeps web sessions but always raises them)`,
    )
    .option('--add-channel <n[,n]>', 'send this account\'s notices to these channels too (see "channels list")')
    .option('--remove-channel <n[,n]>', "stop sending this account's notices to these channels");
}

/** What the word that turns an option off means, for the options that have one. */
const TURNED_OFF_BY: Readonly<Record<string, string>> = {
  drawdown: '"none" turns the levels off',
  expiryWarnDays: '"none" turns the warnings off',
  keepDelegate: '"none" clears the list',
  delegateWatch: '"none" checks delegates with each poll',
  killSwitch: '"off" turns it off',
};

/**
 * An option given an empty value (`--keep-delegate ''`) is a usage error naming it, rather than
 * silently no change: only `--label` and `--signer` take `""` (it removes them on update).
 */
function refuseEmptyOptions(options: SettingOptions): void {
  for (const [key, value] of Object.entries(options)) {
    if (key === 'label' || key === 'signer' || typeof value !== 'string' || value.trim() !== '') continue;
    const option = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const off = TURNED_OFF_BY[key];
    throw new UsageError(`${option}: the value is empty; give a value${off === undefined ? '' : `, or ${off}`}`);
  }
}

function parseAddress(value: string): string {
  return parseAddressArgument('address', value);
}

/** A channel as `accounts show` lists it: name, type, the categories it takes, and `BROKEN` with why. */
function channelText(channel: ChannelRecord): string {
  const broken = channel.state.kind === 'broken' ? `; BROKEN since ${new Date(channel.state.since).toISOString()}: ${channel.state.reason}` : '';
  return `${channel.name} (${channel.type}: ${channel.categories.join(', ')}${broken})`;
}

/** An armed kill switch only alerts while automatic actions are off stage-wide: say so. */
async function warnIfProtectionOff(rt: CliRuntime, account: AccountSettings, io: CliContext['io']): Promise<void> {
  if (account.killSwitch === null) return;
  if ((await rt.protection().read()) === 'off') {
    io.err(
      'note: automatic actions are off stage-wide ("sentinel protection status"): the kill switch only alerts until someone runs "sentinel protection on"\n',
    );
  }
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
    if (options.email === undefined) throw new UsageError("required option '--email <a[,b]>' not specified");
    refuseEmptyOptions(options);
    const { addChannel, removeChannel, ...settingOptions } = options;
    const settings = settingsFrom(parseAddress(address), settingOptions);
    const rt = await context.runtime();
    const channelEdit = await checkChannelEdit(rt, {
      ...(addChannel === undefined ? {} : { addChannel }),
      ...(removeChannel === undefined ? {} : { removeChannel }),
    });
    const outcome = await rt.repos.accounts.create(newTrackedAccount(settings, rt.now()));
    if (outcome.kind === 'exists') throw new Error(`${settings.address} is already tracked; use "accounts update" to change it`);
    await syncRecipients(rt, settings.address, [], settings.emails);
    if (channelEdit) await applyChannelEdit(rt, settings.address, channelEdit);
    io.out(`tracking ${settings.address}${settings.label ? ` (${settings.label})` : ''}\n`);
    for (const note of brokenChannelNotes(channelEdit)) io.err(note);
    if (settings.revokeUnknown !== 'off') io.err(armedNote(settings.address, await armKnownKeys(rt, settings.address)));
    if (!settings.signer) io.err('note: no --signer given, so alerts carry no one-click revocation link\n');
    await warnIfProtectionOff(rt, settings, io);
  });

  withSettingOptions(accounts.command('update').argument('<address>').description('change the settings of a tracked account'), false)
    .option('--add-email <a[,b]>', 'add recipients, keeping the others')
    .option('--remove-email <a[,b]>', 'remove recipients, keeping the others')
    .action(async (address: string, options: SettingOptions) => {
      const checksummed = parseAddress(address);
      refuseEmptyOptions(options);
      const { addEmail, removeEmail, addChannel, removeChannel, ...settingOptions } = options;
      if (options.email !== undefined && (addEmail !== undefined || removeEmail !== undefined)) {
        throw new UsageError('--email replaces the recipients; use it without --add-email and --remove-email');
      }
      const patch = accountSettingsPatchSchema.safeParse(settingOptions);
      if (!patch.success) throw new UsageError(describeSettingsError(patch.error));
      const added = addEmail === undefined ? [] : parseEmails('--add-email', addEmail);
      const removed = removeEmail === undefined ? [] : parseEmails('--remove-email', removeEmail);
      const channelOptions = { ...(addChannel === undefined ? {} : { addChannel }), ...(removeChannel === undefined ? {} : { removeChannel }) };
      const settingsGiven = Object.values(patch.data).some((v) => v !== undefined) || added.length > 0 || removed.length > 0;
      if (!settingsGiven && addChannel === undefined && removeChannel === undefined) {
        throw new UsageError('nothing to update: give at least one option');
      }
      const rt = await context.runtime();
      const channelEdit = await checkChannelEdit(rt, channelOptions);
      const current = await rt.repos.accounts.get(checksummed);
      if (!current) throw new Error(`${checksummed} is not tracked`);
      if (!settingsGiven && channelEdit) {
        await applyChannelEdit(rt, checksummed, channelEdit);
        io.out(`updated ${checksummed}\n`);
        for (const note of brokenChannelNotes(channelEdit)) io.err(note);
        return;
      }
      const given = Object.fromEntries(Object.entries(patch.data).filter(([, v]) => v !== undefined)) as AccountSettingsPatch;
      if (added.length > 0 || removed.length > 0) given.emails = editRecipients(checksummed, current.emails, added, removed);
      const next = applySettingsPatch(current, given, rt.now());
      const outcome = await rt.repos.accounts.updateSettings(checksummed, changedFields(current, next));
      if (outcome.kind === 'not-found') throw new Error(`${checksummed} is not tracked`);
      await syncRecipients(rt, checksummed, current.emails, outcome.account.emails);
      if (channelEdit) await applyChannelEdit(rt, checksummed, channelEdit);
      io.out(`updated ${checksummed}\n`);
      for (const note of brokenChannelNotes(channelEdit)) io.err(note);
      await warnIfProtectionOff(rt, outcome.account, io);
      if (current.revokeUnknown === 'off' && outcome.account.revokeUnknown !== 'off') io.err(armedNote(checksummed, await armKnownKeys(rt, checksummed)));
    });

  accounts
    .command('import')
    .argument('<file>', `CSV with a header row (${SETTING_FIELDS.map(columnOf).join(',')}; lists separated by ";") or JSON lines with the same keys`)
    .description(
      'add or update many accounts at once: a column the file lacks leaves that setting as it is; bad rows are reported by line and the rest imported',
    )
    .option(
      '--ignore-columns <a[,b]>',
      "leave out these columns (a spreadsheet's notes, owner, ...); columns close to no known name are left out anyway, with a warning",
    )
    .option('--json', 'print {created, updated, unchanged, errors, ignoredColumns, withoutSigner} as JSON')
    .action((file: string, options: ImportOptions) => runImport(file, options, context));

  accounts
    .command('export')
    .description('print every tracked account in the import format (accounts import reads it back unchanged)')
    .addOption(new Option('--format <format>', 'csv or jsonl (JSON lines)').choices(EXPORT_FORMATS).default('csv'))
    .action(async (options: { format: ExportFormat }) => {
      const rt = await context.runtime();
      const all = (await rt.repos.accounts.list()).sort(byLabelThenAddress);
      io.out(formatExport(all, options.format, await rt.repos.channels.list()));
    });

  accounts
    .command('list')
    .description('list tracked accounts, with how many are ok, stale, failing and new')
    .addOption(new Option('--status <status>', 'only the accounts with this status').choices(SHOWN_STATUSES))
    .option('--json', 'print JSON (the counts by status go to stderr)')
    .action(async (options: { json?: boolean; status?: ShownStatus }) => {
      const rt = await context.runtime();
      const now = rt.now();
      const every = (await rt.repos.accounts.list()).sort(byLabelThenAddress).map((a) => ({ account: a, status: shown(a, now).status }));
      const all = every.filter((e) => options.status === undefined || e.status === options.status).map((e) => e.account);
      const suppressed = await rt.repos.suppressions.lookup(all.flatMap((a) => a.emails));
      const views = all.map((a) => ({ account: a, recipients: recipientsWithSuppression(a.emails, suppressed) }));
      const counts = statusCounts(
        every.map((e) => e.status),
        all.length,
        options.status,
      );
      if (options.json) {
        printJson(
          io,
          views.map((v) => publicView(v.account, v.recipients, now)),
        );
        if (every.length > 0) io.err(`${counts}\n`);
        return;
      }
      if (every.length === 0) return io.out('no accounts tracked yet; add one with "sentinel accounts add <address> --email you@example.com"\n');
      if (all.length > 0) {
        io.out(
          formatTable(
            ['LABEL', 'ADDRESS', 'INTERVAL', 'STATUS', 'LAST POLL', 'RECIPIENTS', 'NEXT POLL'],
            views.map(({ account: a, recipients }) => [
              a.label ?? '',
              a.address,
              a.interval,
              shown(a, now).status,
              lastPollText(lastPollOf(a)),
              recipients.map((r) => (r.suppressed ? `${r.email} (suppressed: ${r.suppressed.reason})` : r.email)).join(', '),
              new Date(nextPollAt(a, now)).toISOString(),
            ]),
          ),
        );
      }
      io.out(`${counts}\n`);
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
      const recipients = recipientsWithSuppression(account.emails, await rt.repos.suppressions.lookup(account.emails));
      const protection = await rt.protection().read();
      const automatic = await protectionStatus(rt.repos, account);
      const routed = channelsRoutedTo(await rt.repos.channels.list(), account.address);
      if (options.json)
        return printJson(io, {
          ...publicView(account, recipients, now),
          protection,
          killSwitchState: automatic.killSwitch?.state ?? null,
          killSwitchResult: automatic.killSwitch?.settlement ?? null,
          unknownKeyDecisions: automatic.unknownKeys,
          channels: routed.map((c) => ({ name: c.name, type: c.type, categories: c.categories, state: c.state.kind })),
        });
      const rows: [string, string][] = [
        ['address', account.address],
        ['label', account.label ?? '-'],
        ...recipients.map((r, i): [string, string] => [i === 0 ? 'recipients' : '', r.suppressed ? `${r.email} (${suppressionNote(r.suppressed)})` : r.email]),
        ['interval', account.interval],
        ['drawdown levels', account.drawdownThresholds.length ? account.drawdownThresholds.map((l) => `${l}%`).join(', ') : 'off'],
        ['daily report', `${account.reportAt} ${account.timezone}`],
        ['expiry warnings', account.expiryWarnDays.length ? `${account.expiryWarnDays.join(', ')} days before` : 'off'],
        ['signer', account.signer ?? 'none (no one-click revocation)'],
        ...(routed.length === 0
          ? [['channels', 'none (emails only)'] as [string, string]]
          : routed.map((c, i): [string, string] => [i === 0 ? 'channels' : '', channelText(c)])),
        ['delegate watch', account.delegateWatch ? `every ${account.delegateWatch}` : 'with each poll'],
        ['kill switch', killSwitchText(account)],
        ['protection', protection === 'on' ? 'on stage-wide' : 'OFF stage-wide (automatic actions only alert)'],
        ...(automatic.killSwitch === null
          ? []
          : [['kill switch now', killSwitchStateText(automatic.killSwitch.state, account.address, automatic.killSwitch.settlement)] as [string, string]]),
        ['revoke unknown', await revokeUnknownText(rt.repos.knownDelegates, account)],
        ...automatic.unknownKeys.map((u): [string, string] => ['', unknownKeyDecisionText(u)]),
        ['status', statusText(account, now)],
        ['last poll', lastPollText(lastPollOf(account))],
        ['tracked since', new Date(account.createdAt).toISOString()],
        ['next poll', new Date(nextPollAt(account, now)).toISOString()],
        ['next report', new Date(account.nextReportAt).toISOString()],
      ];
      io.out(rows.map(([k, v]) => `${k.padEnd(16)} ${v}`).join('\n') + '\n');
    });

  accounts
    .command('rearm')
    .argument('<address>')
    .description('arm the kill switch again after it fired, before the drawdown recovers (audited); one that has not fired is left as it is')
    .action(async (address: string) => {
      const rt = await context.runtime();
      const account = await rt.repos.accounts.get(parseAddress(address));
      if (!account) throw new Error(`${parseAddress(address)} is not tracked`);
      const outcome = await rearmKillSwitch(
        { alerts: rt.repos.alerts, audit: rt.repos.audit, now: () => rt.now() },
        { address: account.address, by: operator() },
      );
      if (outcome.kind === 'conflict') throw new Error('a poll changed the kill switch state meanwhile; run rearm again');
      const off = account.killSwitch === null ? '; note: its kill switch is off (--kill-switch <pct> turns it on)' : '';
      if (outcome.kind === 'not-fired') {
        return io.out(
          `kill switch of ${account.address} has not fired: nothing to re-arm (now: ${killSwitchStateText(outcome.state, account.address)})${off}\n`,
        );
      }
      const from = outcome.from;
      const settlement = from.status === 'revoking' ? await settlementOf(rt.repos, from.decisionId) : null;
      // Re-arming stops no revocation already queued: the signer still settles it.
      const queued = from.status === 'revoking' && settlement === null ? '; the keys already queued are still being revoked' : '';
      io.out(`kill switch of ${account.address} re-armed (was: ${killSwitchStateText(from, account.address, settlement, false)}; audited)${queued}${off}\n`);
    });

  accounts
    .command('remove')
    .argument('[address...]', 'accounts to stop tracking')
    .option('--file <file>', 'also remove the addresses in this file (one per line, or a CSV with an address column such as accounts export writes)')
    .description('stop tracking accounts (their stored history expires by retention)')
    .action(async (addressArgs: string[], options: { file?: string }) => {
      const addresses = addressArgs.map(parseAddress);
      if (options.file !== undefined) addresses.push(...(await readAddressFile(options.file)));
      if (addresses.length === 0) throw new UsageError('give the addresses to remove, or --file');
      const rt = await context.runtime();
      const before = await rt.repos.accounts.getMany(addresses);
      const outcome =
        addresses.length === 1
          ? await rt.repos.accounts
              .remove(addresses[0] as string)
              .then((r) => (r.kind === 'removed' ? { removed: addresses, notFound: [] } : { removed: [], notFound: addresses }))
          : await rt.repos.accounts.removeMany(addresses);
      const removed = new Set(outcome.removed);
      await mapConcurrent(
        before.filter((a) => removed.has(a.address)),
        8,
        (a) => syncRecipients(rt, a.address, a.emails, []),
      );
      if (outcome.removed.length === 1) io.out(`stopped tracking ${outcome.removed[0]}\n`);
      else if (outcome.removed.length > 1) io.out(`stopped tracking ${plural(outcome.removed.length, 'account')}\n`);
      if (outcome.notFound.length === 1) throw new Error(`${outcome.notFound[0]} is not tracked`);
      if (outcome.notFound.length > 1) {
        for (const address of outcome.notFound) io.err(`${address} is not tracked\n`);
        throw new Error(`${outcome.notFound.length} of ${plural(addresses.length, 'address', 'addresses')} were not tracked (see above)`);
      }
    });
}

function parseEmails(option: string, value: string): string[] {
  const parsed = accountSettingsPatchSchema.safeParse({ email: value });
  if (!parsed.success) throw new UsageError(describeSettingsError(parsed.error).replace(/^email:/, `${option}:`));
  return parsed.data.emails ?? [];
}

function editRecipients(address: string, current: readonly string[], added: readonly string[], removed: readonly string[]): string[] {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const missing = removed.filter((r) => !current.some((c) => same(c, r)));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} ${missing.length === 1 ? 'is not a recipient' : 'are not recipients'} of ${address}`);
  const kept = current.filter((c) => !removed.some((r) => same(c, r)));
  const next = [...kept, ...added.filter((a) => !kept.some((k) => same(k, a)))];
  if (next.length === 0) throw new UsageError(`${address} would have no recipient left; remove the account instead (accounts remove)`);
  const checked = accountSettingsPatchSchema.safeParse({ email: next });
  if (!checked.success) throw new UsageError(describeSettingsError(checked.error));
  return checked.data.emails ?? next;
}

/** The account as shown to users (`--json`): settings, status and schedule. */
function publicView(a: TrackedAccount, recipients: readonly RecipientView[], now: number): Record<string, unknown> {
  return {
    address: a.address,
    label: a.label,
    emails: a.emails,
    suppressed: recipients.filter((r) => r.suppressed).map((r) => ({ email: r.email, reason: r.suppressed?.reason, since: isoOf(r.suppressed?.suppressedAt) })),
    interval: a.interval,
    drawdownThresholds: a.drawdownThresholds,
    reportAt: a.reportAt,
    timezone: a.timezone,
    expiryWarnDays: a.expiryWarnDays,
    signer: a.signer,
    delegateWatch: a.delegateWatch,
    killSwitch: a.killSwitch,
    killSwitchConfirm: a.killSwitchConfirm,
    keepDelegates: a.keepDelegates,
    killSwitchWebSessions: a.killSwitchWebSessions,
    killSwitchDryRun: a.killSwitchDryRun,
    revokeUnknown: a.revokeUnknown,
    status: shown(a, now).status,
    statusReason: shown(a, now).reason,
    lastPoll: lastPollJson(lastPollOf(a)),
    createdAt: new Date(a.createdAt).toISOString(),
    nextDueAt: new Date(nextPollAt(a, now)).toISOString(),
    nextReportAt: new Date(a.nextReportAt).toISOString(),
  };
}

/** `off`, or the mode with how many keys are known and since when (or that they are still to take). */
async function revokeUnknownText(repo: KnownDelegatesRepository, account: TrackedAccount): Promise<string> {
  if (account.revokeUnknown === 'off') return 'off';
  const state = await repo.read(account.address);
  const keys =
    state.baselineAt === null
      ? 'known keys taken at the next delegate check'
      : `${plural(state.known.size, 'known key')} (since ${new Date(state.baselineAt).toISOString()})`;
  return `${account.revokeUnknown}: ${keys}`;
}

function isoOf(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** The status to show (see `shownStatus`): `stale` while a pending poll is overdue, `new` before the first poll. */
function shown(account: TrackedAccount, now: number): { status: ShownStatus; reason: string | null } {
  return shownStatus(account, now, withoutUrls);
}

function statusText(account: TrackedAccount, now: number): string {
  const { status, reason } = shown(account, now);
  return reason ? `${status}: ${reason}` : status;
}

/** `40 accounts: 35 ok, 1 stale, 2 failing, 2 new`; with a filter, `2 of 40 accounts failing; all: ...`. */
function statusCounts(statuses: readonly ShownStatus[], shownCount: number, filter: ShownStatus | undefined): string {
  const byStatus = SHOWN_STATUSES.map((s) => `${statuses.filter((x) => x === s).length} ${s}`).join(', ');
  if (filter === undefined) return `${plural(statuses.length, 'account')}: ${byStatus}`;
  return `${shownCount} of ${plural(statuses.length, 'account')} ${filter}; all: ${byStatus}`;
}
