import type { Command } from 'commander';
import { parseAddressArgument as parseAddress } from '../readAddress';
import { ChainError } from '../../functions/chain/errors';
import { ConfigError } from '../../functions/config/settings';
import type { Address } from '../../functions/domain/address';
import { DEFAULT_ANNOUNCEMENT_MS, openAnnouncements } from '../../functions/domain/delegateAnnouncement';
import { delegateStanding, type DelegateStanding } from '../../functions/domain/delegateStanding';
import { formatCountdown } from '../../functions/mail/render/format';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { formatTable, printJson } from '../output';
import { parseAnnounceDuration } from '../parseAnnounceDuration';
import { moveLegacyKnownKeys, type LegacyMoveReport } from '../../functions/services/knownKeys/moveLegacyKnownKeys';

/** What a legacy move did, in one line. */
export function legacyMoveText(moved: LegacyMoveReport): string {
  if (moved.accounts === 0) return 'known keys and announcements: nothing left to move';
  return `known keys and announcements: moved ${moved.known} known key(s) and ${moved.announcements} announcement(s) of ${moved.accounts} account(s) to their own partitions`;
}

async function trackedAccount(rt: CliRuntime, address: Address) {
  const account = await rt.repos.accounts.get(address);
  if (!account) throw new Error(`${address} is not tracked`);
  return account;
}

interface ListedDelegate {
  address: string;
  name: string | null;
  expiryMs: number | null;
  isWebClient: boolean;
}

/** The delegates the chain lists now, or, when it cannot be read, those the last check saw (and why). */
async function currentDelegates(rt: CliRuntime, address: Address): Promise<{ delegates: ListedDelegate[]; source: 'chain' | { stored: string } }> {
  try {
    return { delegates: await rt.chain().getDelegateTraders(address), source: 'chain' };
  } catch (error) {
    if (!(error instanceof ChainError) && !(error instanceof ConfigError)) throw error;
    const views = (await rt.repos.delegates.listForAccount(address)).filter((v) => v.removedAt === null);
    const reason = error instanceof ChainError ? error.shortMessage : error.message;
    return {
      delegates: views.map((v) => ({ address: v.delegate, name: v.name, expiryMs: v.expiryMs, isWebClient: v.isWebClient })),
      source: { stored: reason },
    };
  }
}

function standingText(s: DelegateStanding, now: number): string {
  if (s.kind === 'announced') return `announced (${formatCountdown(s.until, now).replace(/^in /, 'for ')})`;
  return s.kind;
}

/** `sentinel delegates ...`: announce a delegate about to be added, list an account's delegates. */
export function register(program: Command, context: CliContext): void {
  const delegates = program.command('delegates').description("announce and list an account's delegates (unknown-key protection)");
  const { io } = context;

  delegates
    .command('expect')
    .argument('<account>', 'a tracked account')
    .argument('<delegate>', 'the delegate (API key address) about to be added')
    .option('--for <duration>', 'how long the announcement stays open: 30m, 2h, 1d (default 1h, at most 7d)')
    .description('announce a delegate before adding it: with --revoke-unknown on, it is kept (and noticed as expected) instead of revoked')
    .action(async (accountArg: string, delegateArg: string, options: { for?: string }) => {
      const address = parseAddress('account', accountArg);
      const delegate = parseAddress('delegate', delegateArg);
      const forMs = options.for === undefined ? DEFAULT_ANNOUNCEMENT_MS : parseAnnounceDuration(options.for);
      const rt = await context.runtime();
      const account = await trackedAccount(rt, address);
      const now = rt.now();
      await rt.repos.knownDelegates.announce(address, { delegate, announcedAt: now, expiresAt: now + forMs });
      io.out(`expecting ${delegate} on ${address} until ${new Date(now + forMs).toISOString()}\n`);
      if (account.revokeUnknown === 'off') io.err(`note: revoke-unknown is off for ${address}: nothing is revoked, announced or not\n`);
    });

  delegates
    .command('move-legacy')
    .option('--json', 'print {accounts, known, announcements} as JSON')
    .description(
      'move the known keys and announcements kept under each account by earlier versions to their own partitions (once after upgrading; safe to run again; sentinel init runs it locally)',
    )
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const moved = await moveLegacyKnownKeys({ accounts: rt.repos.accounts, knownDelegates: rt.repos.knownDelegates });
      if (options.json) return printJson(io, moved);
      io.out(`${legacyMoveText(moved)}\n`);
    });

  delegates
    .command('list')
    .argument('<account>', 'a tracked account')
    .option('--json', 'print {revokeUnknown, source, delegates, announcements} as JSON')
    .description('the delegates the chain lists now (known, announced or unknown) and the open announcements')
    .action(async (accountArg: string, options: { json?: boolean }) => {
      const address = parseAddress('account', accountArg);
      const rt = await context.runtime();
      const account = await trackedAccount(rt, address);
      const now = rt.now();
      const [{ delegates: listed, source }, state] = await Promise.all([currentDelegates(rt, address), rt.repos.knownDelegates.read(address)]);
      const rows = listed.map((d) => ({ ...d, standing: delegateStanding(d.address, state, now) }));
      const listedKeys = new Set(listed.map((d) => d.address.toLowerCase()));
      const open = [...openAnnouncements(state.announcements, now).values()].map((a) => ({ ...a, listed: listedKeys.has(a.delegate.toLowerCase()) }));
      if (options.json) {
        return printJson(io, {
          revokeUnknown: account.revokeUnknown,
          source: source === 'chain' ? 'chain' : 'stored',
          delegates: rows.map((r) => ({ address: r.address, name: r.name, expiryMs: r.expiryMs, isWebClient: r.isWebClient, standing: r.standing.kind })),
          announcements: open.map((a) => ({ delegate: a.delegate, expiresAt: new Date(a.expiresAt).toISOString(), listed: a.listed })),
        });
      }
      if (source !== 'chain') io.err(`warning: the chain could not be read (${source.stored}); showing the delegates the last check saw\n`);
      const unmoved = openAnnouncements(state.unmovedAnnouncements, now).size;
      if (unmoved > 0)
        io.err(
          `warning: ${unmoved} announcement(s) from before the upgrade are not honoured until moved: run \`sentinel delegates move-legacy\` (or announce again)\n`,
        );
      io.out(
        `revoke-unknown: ${account.revokeUnknown}${state.baselineAt === null && account.revokeUnknown !== 'off' ? ' (known keys taken at the next delegate check)' : ''}\n`,
      );
      io.out(`delegates (${rows.length})\n`);
      if (rows.length > 0) {
        io.out(
          formatTable(
            ['NAME', 'ADDRESS', 'KIND', 'EXPIRES', 'STANDING'],
            rows.map((r) => [
              r.name ?? '-',
              r.address,
              r.isWebClient ? 'web session' : 'api key',
              formatCountdown(r.expiryMs, now),
              standingText(r.standing, now),
            ]),
          ),
        );
      }
      io.out(`open announcements (${open.length})\n`);
      if (open.length > 0) {
        io.out(
          formatTable(
            ['DELEGATE', 'UNTIL', 'LISTED'],
            open.map((a) => [a.delegate, new Date(a.expiresAt).toISOString(), a.listed ? 'yes' : 'not yet']),
          ),
        );
      }
    });
}
