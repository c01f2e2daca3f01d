import { parseArgs } from 'node:util';

/**
 * How long each kind of request takes, in simulated milliseconds, on top of the real request the
 * clock is held for: the time a Lambda in AWS spends waiting on the network, which the simulated
 * clock would otherwise count as zero.
 */
export interface RequestTimes {
  /** One request to a chat or webhook destination (default 200). */
  readonly chatMs: number;
  /** One DynamoDB call (default 6). */
  readonly dynamoMs: number;
  /** One SES send (default 50). */
  readonly sesMs: number;
  /** One chain request (default 200). */
  readonly chainMs: number;
}

/** Options of `npm run bench:channels`. */
export interface ChannelsArgs {
  /** Accounts raising an alert in the poll (default 1,000). */
  readonly accounts: number;
  /** Seed of the simulator and of each account's loss (default 1). */
  readonly seed: number;
  /** `MAIL_RATE`, emails per second for the whole account (default 14, SES's usual starting rate). */
  readonly mailRate: number;
  readonly requestTimes: RequestTimes;
}

const MS_OPTIONS = { 'chat-ms': 'chatMs', 'dynamo-ms': 'dynamoMs', 'ses-ms': 'sesMs', 'chain-ms': 'chainMs' } as const;

/** Parses the benchmark's options; a bad value throws, naming the option. */
export function parseChannelsArgs(argv: readonly string[]): ChannelsArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      accounts: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      'mail-rate': { type: 'string', default: '14' },
      'chat-ms': { type: 'string', default: '200' },
      'dynamo-ms': { type: 'string', default: '6' },
      'ses-ms': { type: 'string', default: '50' },
      'chain-ms': { type: 'string', default: '200' },
    },
  });
  const accounts = Number(values.accounts);
  const seed = Number(values.seed);
  const mailRate = Number(values['mail-rate']);
  if (!Number.isInteger(accounts) || accounts < 1) throw new Error('--accounts must be a positive integer');
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a non-negative integer');
  if (!(mailRate > 0) || !Number.isFinite(mailRate)) throw new Error('--mail-rate must be a positive number');
  const times: Record<string, number> = {};
  for (const [option, key] of Object.entries(MS_OPTIONS)) {
    const ms = Number(values[option as keyof typeof MS_OPTIONS]);
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`--${option} must be a whole number of milliseconds, 0 or more`);
    times[key] = ms;
  }
  return { accounts, seed, mailRate, requestTimes: times as unknown as RequestTimes };
}
