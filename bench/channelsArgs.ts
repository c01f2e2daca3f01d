import { parseArgs } from 'node:util';

/** Options of `npm run bench:channels`. */
export interface ChannelsArgs {
  /** Accounts raising an alert in the poll (default 1,000). */
  readonly accounts: number;
  /** Seed of the simulator and of each account's loss (default 1). */
  readonly seed: number;
  /** `MAIL_RATE`, emails per second for the whole account (default 14, SES's usual starting rate). */
  readonly mailRate: number;
}

/** Parses the benchmark's options; a bad value throws, naming the option. */
export function parseChannelsArgs(argv: readonly string[]): ChannelsArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: { accounts: { type: 'string', default: '1000' }, seed: { type: 'string', default: '1' }, 'mail-rate': { type: 'string', default: '14' } },
  });
  const accounts = Number(values.accounts);
  const seed = Number(values.seed);
  const mailRate = Number(values['mail-rate']);
  if (!Number.isInteger(accounts) || accounts < 1) throw new Error('--accounts must be a positive integer');
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a non-negative integer');
  if (!(mailRate > 0) || !Number.isFinite(mailRate)) throw new Error('--mail-rate must be a positive number');
  return { accounts, seed, mailRate };
}
