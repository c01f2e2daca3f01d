import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { ChannelType, UrlPolicy } from '../domain/channel';
import { channelDefinition } from './channelRegistry';
import { destinationUrlProblem } from '../domain/channel';
import { describeError } from '../shared/describeError';
import { ChannelConfigError } from './errors';

/** Resolves a host name to its addresses (DNS); injectable for tests. */
export type Resolver = (host: string) => Promise<readonly string[]>;

export const dnsResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** One address a destination resolved to. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * A destination as checked: the addresses its host resolved to, every one allowed, which the
 * request must connect to (`pinnedDispatcher`), so no second DNS answer can send it elsewhere.
 * `null` for the local receivers on `localhost` (the loopback policy), which need no pinning.
 */
export type CheckedDestination = readonly CheckedAddress[] | null;

/**
 * IPv4 blocks of the IANA IPv4 Special-Purpose Address Registry (and multicast, reserved and
 * broadcast): this network, private, shared (CGN), loopback, link-local, the IETF protocol
 * assignments (192.0.0.0/24), the TEST-NETs, AS112, AMT, the 6to4 relay anycast, benchmarking
 * (198.18.0.0/15), multicast and everything from 240.0.0.0.
 */
const SPECIAL_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * IPv6 special-purpose blocks inside global unicast (2000::/3): the IETF protocol assignments
 * (2001::/23, Teredo and benchmarking among them), documentation (2001:db8::/32, 3fff::/20) and
 * 6to4 (2002::/16). Everything outside 2000::/3 is refused too: loopback, unspecified, IPv4-mapped
 * and -compatible, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard, unique-local, link-local,
 * site-local, multicast.
 */
const SPECIAL_IPV6: readonly (readonly [string, number])[] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

const special = new BlockList();
for (const [network, prefix] of SPECIAL_IPV4) special.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of SPECIAL_IPV6) special.addSubnet(network, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether `ip` is an address the service may send to from AWS: a public IPv4 address, or an IPv6 global unicast one; no special-use block. */
export function isPublicAddress(ip: string): boolean {
  const version = isIP(ip);
  if (version === 4) return !special.check(ip, 'ipv4');
  if (version === 6) return globalUnicast.check(ip, 'ipv6') && !special.check(ip, 'ipv6');
  return false;
}

function isLoopback(ip: string): boolean {
  const version = isIP(ip);
  return version !== 0 && loopback.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Checks where a request may go before it is sent, and returns the addresses it may connect to:
 * locally (`policy.loopback`) loopback too; in AWS a URL only on its type's service
 * hosts, and any URL only when every address its host resolves to is public (`isPublicAddress`:
 * the Lambda runtime API listens on loopback, and no special-use block is a destination). A host
 * that does not resolve is a retryable `ChannelConfigError`. The message never shows the URL's path.
 */
export async function guardDestination(type: ChannelType, url: string, policy: UrlPolicy, resolve: Resolver = dnsResolver): Promise<CheckedDestination> {
  const problem = destinationUrlProblem(url, policy);
  if (problem !== null) throw new ChannelConfigError(`the ${type} destination URL ${problem}`);
  const host = new URL(url).hostname;
  if (policy.loopback && (host === 'localhost' || host === '127.0.0.1' || host === '[::1]')) return null;
  const { hosts } = channelDefinition(type).settings;
  if (hosts !== null && !hosts.some((h) => (h.startsWith('.') ? host.endsWith(h) && host.length > h.length : host === h)))
    throw new ChannelConfigError(`a ${type} webhook URL must be on ${hosts.map((h) => (h.startsWith('.') ? `*${h}` : h)).join(' or ')}`);
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: readonly string[];
  try {
    addresses = isIP(literal) ? [literal] : await resolve(host);
  } catch (error) {
    // Not resolving now (no such name, a DNS failure) may pass: retried, and a webhook's schedule ends by marking it broken.
    throw new ChannelConfigError(`the ${type} destination ${host} does not resolve`, {
      details: describeError(error, { audience: 'log' }),
      cause: error,
      retryable: true,
    });
  }
  const allowed = (ip: string) => isPublicAddress(ip) || (policy.loopback && isLoopback(ip));
  if (addresses.length === 0 || !addresses.every(allowed)) throw new ChannelConfigError(`the ${type} destination ${host} does not resolve to a public address`);
  return addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dispatcher for `fetch` (undici, as Node's own `fetch` is) that connects to the addresses a
 * destination was checked at (`guardDestination`) and to nothing else: the host name is never
 * looked up again at connect time, so a DNS answer that changed since the check (a rebinding to a
 * private address) cannot redirect the request. TLS still verifies the certificate against the
 * host name. Close it once the answer is read.
 */
export function pinnedDispatcher(addresses: readonly CheckedAddress[]): Agent {
  const first = addresses[0];
  if (first === undefined) throw new Error('a pinned destination needs at least one checked address');
  const lookup = (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all === true)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  };
  return new Agent({ connect: { lookup } });
}
