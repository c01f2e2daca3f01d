import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { VirtualClock } from '../local/virtualClock';

/** `work` with the clock held, then `ms` of simulated time: a request as it would take in AWS, whatever this machine's speed. */
export async function timed<T>(clock: VirtualClock, ms: number, work: () => Promise<T>): Promise<T> {
  const result = await clock.hold(work);
  if (ms > 0) await clock.sleep(ms);
  return result;
}

/** Keeps the clock still while every request of this client is in flight, then lets `ms` of simulated time pass (the call's network time in AWS). */
export function holdDuring(client: DynamoDBClient, clock: VirtualClock, ms: number): void {
  client.middlewareStack.add((next) => (args) => timed(clock, ms, () => next(args)), { step: 'initialize', name: 'benchHoldClock' });
}

/** A `fetch` whose every request is `timed`: held, then `ms` of simulated time. */
export function timedFetch(clock: VirtualClock, ms: number): typeof fetch {
  return (input, init) => timed(clock, ms, () => fetch(input, init));
}
