import { getAddress } from 'ethers';
import { INTERVAL_LENGTHS, isIntervalName, type IntervalName } from './intervals';

/** A validated `GET /portfolio` query. */
export interface PortfolioQuery {
  account: string;
  from: number;
  to: number;
  interval: IntervalName;
}

/** Either the query or the text of a 400 response. */
export type QueryParse = { ok: true; query: PortfolioQuery } | { ok: false; message: string };

const PARAMETERS = ['account', 'from', 'to', 'interval'] as const;
const HINTS: Record<(typeof PARAMETERS)[number], string> = {
  account: 'the 0x-prefixed account address',
  from: 'start in ms since the epoch, inclusive; 0 for all history',
  to: 'end in ms since the epoch, inclusive; 0 for the latest snapshot',
  interval: `one of ${Object.keys(INTERVAL_LENGTHS).join(', ')}`,
};

/**
 * Validates the query string of `GET /portfolio`. All four parameters are required; unknown or
 * repeated parameters are refused as well, so a typo never silently falls back to a default.
 */
export function parsePortfolioQuery(params: URLSearchParams): QueryParse {
  const known = new Set<string>(PARAMETERS);
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (!known.has(key)) return fail(`unknown query parameter "${clip(key)}"; expected ${PARAMETERS.join(', ')}`);
    if (seen.has(key)) return fail(`query parameter "${key}" is given more than once`);
    seen.add(key);
  }
  for (const name of PARAMETERS) {
    if (!seen.has(name)) return fail(`missing query parameter "${name}" (${HINTS[name]})`);
  }
  const account = parseAddress(params.get('account') ?? '');
  if (account === undefined) return fail(`account must be a 0x-prefixed 20-byte hex address, got "${clip(params.get('account') ?? '')}"`);
  const from = parseMs('from', params.get('from') ?? '');
  if (typeof from === 'string') return fail(from);
  const to = parseMs('to', params.get('to') ?? '');
  if (typeof to === 'string') return fail(to);
  const interval = params.get('interval') ?? '';
  if (!isIntervalName(interval)) return fail(`interval must be ${HINTS.interval}; got "${clip(interval)}"`);
  if (to !== 0 && from > to) return fail(`from (${from}) must not be after to (${to})`);
  return { ok: true, query: { account, from, to, interval } };
}

const checksummed = new Map<string, string>();

/** A hex address in any case, checksummed; undefined if it is not one. */
export function parseAddress(text: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return undefined;
  const lower = text.toLowerCase();
  let address = checksummed.get(lower);
  if (address === undefined) {
    // Checksums cost a keccak each; polled accounts repeat, so remember a bounded number.
    if (checksummed.size >= 100_000) checksummed.clear();
    address = getAddress(lower);
    checksummed.set(lower, address);
  }
  return address;
}

function parseMs(name: string, text: string): number | string {
  if (/^-\d+$/.test(text)) return `${name} must be >= 0, got ${clip(text)}`;
  if (!/^\d+$/.test(text)) return `${name} must be an integer number of milliseconds, got "${clip(text)}"`;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return `${name} is too large: ${clip(text)}`;
  return value;
}

function fail(message: string): QueryParse {
  return { ok: false, message };
}

function clip(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}...` : text;
}
