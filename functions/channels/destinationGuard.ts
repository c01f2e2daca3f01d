import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { SERVICE_HOSTS, type ChannelType, type UrlPolicy } from '../domain/channel';
import { destinationUrlProblem } from '../domain/channel';
import { describeError } from '../shared/describeError';
import { ChannelConfigError } from './errors';

/** Resolves a host name to its addresses (DNS); injectable for tests. */
export type Resolver = (host: string) => Promise<readonly string[]>;

export const dnsResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      a >= 224
    );
  }
  const v6 = ip.toLowerCase();
  if (v6.startsWith('::ffff:')) return isPublicAddress(v6.slice(7));
  return !(v6 === '::1' || v6 === '::' || v6.startsWith('fe80:') || v6.startsWith('fc') || v6.startsWith('fd'));
}

/**
 * Checks where a request may go before it is sent: locally (`policy.loopback`) loopback too;
 * in AWS Slack and Discord URLs only on their services' hosts, and any URL only when its host
 * resolves to public addresses (the Lambda runtime API listens on loopback). A host that does not
 * resolve is a retryable `ChannelConfigError`. The message never shows the URL's path.
 */
export async function guardDestination(type: ChannelType, url: string, policy: UrlPolicy, resolve: Resolver = dnsResolver): Promise<void> {
  const problem = destinationUrlProblem(url, policy);
  if (problem !== null) throw new ChannelConfigError(`the ${type} destination URL ${problem}`);
  const host = new URL(url).hostname;
  if (policy.loopback && (host === 'localhost' || host === '127.0.0.1' || host === '[::1]')) return;
  const hosts = SERVICE_HOSTS[type];
  if (hosts !== undefined && !hosts.includes(host)) throw new ChannelConfigError(`a ${type} webhook URL must be on ${hosts.join(' or ')}`);
  let addresses: readonly string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch (error) {
    // Not resolving now (no such name, a DNS failure) may pass: retried, and a webhook's schedule ends by marking it broken.
    throw new ChannelConfigError(`the ${type} destination ${host} does not resolve`, {
      details: describeError(error, { audience: 'log' }),
      cause: error,
      retryable: true,
    });
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress))
    throw new ChannelConfigError(`the ${type} destination ${host} does not resolve to a public address`);
}
