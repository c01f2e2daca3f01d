import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import type { CheckedAddress } from './destinationGuard';

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
