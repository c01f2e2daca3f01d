import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SignerError } from '../functions/chain/errors';
import type { ChainClient, Signer } from '../functions/chain/ports';
import { EmailSendError } from '../functions/mail/errors';
import type { MailSender, RawEmail } from '../functions/mail/send/sesSender';
import type { DeliveryRepository } from '../functions/store/deliveryRepository';
import type { QueueClock } from '../local/queue/inProcessQueue';
import type { VirtualClock } from '../local/virtualClock';

/** The simulated clock, with `hold` for the calls that take no simulated time (see `VirtualClock`). */
export type HoldingClock = QueueClock & Pick<VirtualClock, 'hold'>;

const MINUTE = 60_000;

/** A fault and the simulated window it is on in, ms from midnight of the simulated day. */
export interface FaultWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

/** When each fault is on (the chaos run); the fault-free run has none. */
export interface ChaosSchedule {
  /** Every chain route answers 500. */
  readonly chainDown: FaultWindow;
  /** Every chain call takes a log-normal time, p50 2 s (simulated). */
  readonly chainSlow: FaultWindow;
  /** Half of the SES sends answer `Throttling`. */
  readonly sesThrottle: FaultWindow;
  /** A fifth of DynamoDB writes answer `ProvisionedThroughputExceededException`. */
  readonly dynamoThrottle: FaultWindow;
  /** The first report delivery claimed from here on stalls past the worker's deadline and the queue's visibility timeout, then goes on (`hangAfterClaim`). */
  readonly hangAt: number;
  /**
   * The owner keys' key service (KMS) answers nothing for `forMs`, from the first signing at or
   * after `fromMs` (the scenario's firings, whenever the kill switches confirm them): the signer
   * cannot sign (`keyServiceSigner`).
   */
  readonly keyServiceDown: { readonly fromMs: number; readonly forMs: number };
}

/**
 * The protection scenario both days run (`bench/chaosDay.ts`): a dozen accounts armed with the kill
 * switch (`confirm now`, two API keys each, their owner keys with the signer) lose `dropPct` % in
 * the minute before `dropAtMs` and cross their level together; the breaker (5 accounts an hour)
 * opens at the sixth. The chaos day has the key service down for 10 minutes from their first
 * signing (`keyServiceDown`).
 */
export const PROTECTION_SCENARIO = { accounts: 12, levelPct: 30, dropPct: 40, dropAtMs: 539 * MINUTE, interval: '15m', keysPerAccount: 2 } as const;

/**
 * The day's faults: the chain down 07:30-08:30 (across the 08:00 reports), SES throttled 08:00-08:30,
 * the owner keys' key service down for 10 minutes from the first signing after 09:00 (as a dozen
 * armed accounts cross their kill-switch levels), the chain slow 12:00-13:00, DynamoDB throttled
 * 16:00-16:15, one report worker hanging at 08:00.
 */
export const CHAOS_SCHEDULE: ChaosSchedule = {
  chainDown: { fromMs: 450 * MINUTE, toMs: 510 * MINUTE },
  chainSlow: { fromMs: 720 * MINUTE, toMs: 780 * MINUTE },
  sesThrottle: { fromMs: 480 * MINUTE, toMs: 510 * MINUTE },
  dynamoThrottle: { fromMs: 960 * MINUTE, toMs: 975 * MINUTE },
  hangAt: 480 * MINUTE,
  keyServiceDown: { fromMs: 540 * MINUTE, forMs: 10 * MINUTE },
};

/**
 * The signer's owner keys as the chaos run sees them: from the first signing at or after `from`
 * (simulated epoch ms), for `forMs`, building a signer fails as KMS unreachable does (`SignerError`
 * `kms-unavailable`: the signer answers `signer-unavailable`, sends nothing, and the decision's unit
 * waits for a redelivery); otherwise `inner`. `window()` says when it was down (`null`: never).
 */
export function keyServiceSigner(inner: (ref: string) => Promise<Signer>, outage: { from: number; forMs: number }, clock: QueueClock) {
  let downFrom: number | null = null;
  return {
    signerFor: async (ref: string): Promise<Signer> => {
      const now = clock.now();
      if (downFrom === null && now >= outage.from) downFrom = now;
      if (downFrom !== null && now < downFrom + outage.forMs) throw new SignerError('kms-unavailable', 'the key service did not answer (fault injected)');
      return inner(ref);
    },
    window: (): FaultWindow | null => (downFrom === null ? null : { fromMs: downFrom, toMs: downFrom + outage.forMs }),
  };
}

/** Whether `at` (simulated epoch ms) falls in `window` of the day starting at `dayStart`. */
export function within(window: FaultWindow, dayStart: number, at: number): boolean {
  return at >= dayStart + window.fromMs && at < dayStart + window.toMs;
}

/** A standard normal draw (Box-Muller) from a uniform source. */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * The chain client as seen from the service: before each call the simulator's clock is brought to
 * the service's simulated time; while `slow(now)`, the call first waits a log-normal time of
 * median 2 s (sigma 0.5) on the simulated clock. The simulator's own latency is wall time, which
 * would stretch the run without moving the simulated clock, hence this wrapper. The call itself is
 * held (`clock.hold`): no sleeper moves the clock while it is in flight.
 */
export function chaosChain(
  inner: ChainClient,
  clock: HoldingClock,
  syncSimulator: (nowMs: number) => Promise<void>,
  slow: (now: number) => boolean,
  random: () => number,
): ChainClient {
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (slow(clock.now())) await clock.sleep(Math.round(2_000 * Math.exp(0.5 * normal(random))));
        return clock.hold(async () => {
          await syncSimulator(clock.now());
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        });
      };
    },
  });
}

/** One email SES accepted, with the event id it carries (`X-Sentinel-Event-Id`). */
export interface AcceptedEmail {
  readonly eventId: string;
  readonly destinations: readonly string[];
  readonly at: number;
}

function eventIdOf(email: RawEmail): string {
  const head = Buffer.from(email.raw.subarray(0, 8_192)).toString('utf8');
  // A long header value is folded onto the next lines.
  return /^X-Sentinel-Event-Id:((?:[^\r\n]|\r?\n[ \t])+)/im.exec(head)?.[1]?.replace(/\s+/g, '') ?? 'unknown';
}

/**
 * SES as the chaos run sees it: while `throttled(now)`, half the sends answer `Throttling`
 * (retryable) before reaching SES. Every accepted email is recorded with its event id and the
 * simulated time. The send to SES is held (`clock.hold`).
 */
export function chaosSender(inner: MailSender, clock: HoldingClock, options: { throttled: (now: number) => boolean; random: () => number }) {
  const accepted: AcceptedEmail[] = [];
  let throttledSends = 0;
  const sender: MailSender = {
    async send(email) {
      const eventId = eventIdOf(email);
      if (options.throttled(clock.now()) && options.random() < 0.5) {
        throttledSends++;
        throw new EmailSendError('Throttling', true, 'Maximum sending rate exceeded.');
      }
      const result = await clock.hold(() => inner.send(email));
      accepted.push({ eventId, destinations: email.destinations, at: clock.now() });
      return result;
    },
  };
  return { sender, accepted, throttledSends: () => throttledSends };
}

/**
 * The hung worker: the first report delivery claimed at or after `hangAt` stalls `hangMs` on the
 * simulated clock right after its claim (past the worker's deadline and the queue's visibility
 * timeout: the job is redelivered meanwhile), then goes on with its late result. A hang inside
 * the SES call itself would leave the send's outcome unknown, which is not simulated here.
 */
export function hangAfterClaim(deliveries: DeliveryRepository, clock: HoldingClock, options: { hangAt: number; hangMs: number }): DeliveryRepository {
  let hung = false;
  return new Proxy(deliveries, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (name !== 'begin') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return async (...args: Parameters<DeliveryRepository['begin']>) => {
        const begun = await target.begin(...args);
        if (!hung && begun.kind === 'new' && clock.now() >= options.hangAt && args[0].startsWith('report:')) {
          hung = true;
          await clock.sleep(options.hangMs);
        }
        return begun;
      };
    },
  });
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

/**
 * Holds the simulated clock (`clock.hold`) while each DynamoDB call of `client` is in flight, SDK
 * retries included; returns how many calls were made. With `byKind`, also counts them there per
 * command and table (and index).
 */
export function holdDynamoCalls(client: DynamoDBClient, clock: HoldingClock, byKind?: Map<string, number>): () => number {
  let calls = 0;
  client.middlewareStack.add(
    (next, context) => (args) => {
      calls++;
      if (byKind) {
        const input = args.input as { TableName?: string; IndexName?: string };
        const key = `${context.commandName ?? '?'} ${input.TableName ?? ''}${input.IndexName ? `/${input.IndexName}` : ''}`;
        byKind.set(key, (byKind.get(key) ?? 0) + 1);
      }
      return clock.hold(() => next(args));
    },
    { step: 'initialize', name: 'chaosHoldClock' },
  );
  return () => calls;
}

/**
 * Throttles a share of the DynamoDB writes while `throttled(now)`: the request answers
 * `ProvisionedThroughputExceededException` without reaching DynamoDB Local. Added inside the SDK's
 * retry step, so the SDK retries it as it would DynamoDB's own answer. Returns how many were throttled.
 */
export function throttleDynamoWrites(
  client: DynamoDBClient,
  throttled: (now: number) => boolean,
  clock: QueueClock,
  random: () => number,
  share = 0.2,
): () => number {
  return throttleDynamo(client, (command) => WRITES.has(command) && throttled(clock.now()) && random() < share);
}

/**
 * Answers `ProvisionedThroughputExceededException` to each request of `client` that `when` picks
 * (by command name and input), without reaching DynamoDB; inside the SDK's retry step, so the SDK
 * retries it as DynamoDB's own answer. Returns how many were throttled.
 */
export function throttleDynamo(client: DynamoDBClient, when: (command: string, input: Record<string, unknown>) => boolean): () => number {
  let count = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (when(context.commandName ?? '', ((args as { input?: unknown }).input ?? {}) as Record<string, unknown>)) {
        count++;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput (fault injected).'), {
          name: 'ProvisionedThroughputExceededException',
          $fault: 'client',
          $metadata: { httpStatusCode: 400 },
        });
      }
      return next(args);
    },
    { step: 'deserialize', name: 'throttleDynamo' },
  );
  return () => count;
}
