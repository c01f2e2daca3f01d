/**
 * The channel benchmark's counting (`bench/channels.ts`), pure: from what the receivers answered
 * and what each notice's delivery record says, the figures of its tables.
 */
import { mostInWindow } from './stats';

/** A destination's published rate: at most `count` messages in any `windowMs`. */
export interface RateLimit {
  readonly count: number;
  readonly windowMs: number;
}

/** One request a receiver answered: its destination, when (ms), its status, and how many notices a delivered one carried (a summary: several). */
export interface AnsweredRequest {
  readonly destination: string;
  readonly at: number;
  readonly status: number;
  readonly carried: number;
}

/** One notice to one channel: when its delivery record says it was sent (null: never). */
export interface NoticeDelivery {
  readonly notice: string;
  readonly sentAt: number | null;
}

/** What one channel type got, over all its destinations. */
export interface ChannelTally {
  /** Notices that should have reached it. */
  readonly expected: number;
  /** Notices whose delivery record says sent. */
  readonly delivered: number;
  readonly lost: number;
  /** Notices the receivers got more often than they were delivered (one notice alone and in a summary counts twice). */
  readonly duplicated: number;
  /** Notices that arrived inside a summary. */
  readonly combined: number;
  /** Messages delivered (2xx), summaries and follow-ups included. */
  readonly messages: number;
  readonly throttled: number;
  /** From the notice's alert being raised (its account's poll) to delivery, ms, sorted. */
  readonly latencyMs: readonly number[];
  /** Messages per second over the span from the first to the last delivered message, per destination: the highest. */
  readonly peakRatePerDestination: number;
  /** The most messages any one destination got inside any window of each limit: [limit, most]. */
  readonly mostInWindow: readonly (readonly [RateLimit, number])[];
}

/**
 * Tallies one channel type: `deliveries` one per (notice, channel) that should have been sent,
 * `requests` what its receivers answered, `raisedAt` when each notice's alert was raised (its
 * account's poll), `limits` the destination's published rates.
 */
export function tallyChannel(
  deliveries: readonly NoticeDelivery[],
  requests: readonly AnsweredRequest[],
  raisedAt: (notice: string) => number,
  limits: readonly RateLimit[],
): ChannelTally {
  const sent = deliveries.filter((d) => d.sentAt !== null);
  const ok = requests.filter((r) => r.status >= 200 && r.status < 300);
  const carried = ok.reduce((n, r) => n + r.carried, 0);
  const byDestination = new Map<string, number[]>();
  for (const r of ok) byDestination.set(r.destination, [...(byDestination.get(r.destination) ?? []), r.at]);
  let peakRatePerDestination = 0;
  for (const times of byDestination.values()) {
    const span = (Math.max(...times) - Math.min(...times)) / 1_000;
    if (times.length > 1 && span > 0) peakRatePerDestination = Math.max(peakRatePerDestination, (times.length - 1) / span);
  }
  return {
    expected: deliveries.length,
    delivered: sent.length,
    lost: deliveries.length - sent.length,
    duplicated: Math.max(0, carried - sent.length),
    combined: ok.filter((r) => r.carried > 1).reduce((n, r) => n + r.carried, 0),
    messages: ok.length,
    throttled: requests.filter((r) => r.status === 429).length,
    latencyMs: sent.map((d) => d.sentAt! - raisedAt(d.notice)).sort((a, b) => a - b),
    peakRatePerDestination,
    mostInWindow: limits.map((limit) => [limit, Math.max(0, ...[...byDestination.values()].map((times) => mostInWindow(times, limit.windowMs)))] as const),
  };
}

/** One email SES accepted: its event id, recipient and when (ms). */
export interface AcceptedEmail {
  readonly eventId: string;
  readonly recipient: string;
  readonly at: number;
}

/** Email figures of one run. */
export interface EmailTally {
  readonly sent: number;
  readonly duplicated: number;
  /** From the alert being raised to SES accepting it, ms, sorted (first acceptance per event and recipient). */
  readonly latencyMs: readonly number[];
}

/** Tallies the alert emails of a run, each from `raisedAt` its event. */
export function tallyEmails(accepted: readonly AcceptedEmail[], raisedAt: (eventId: string) => number): EmailTally {
  const first = new Map<string, AcceptedEmail>();
  let duplicated = 0;
  for (const email of accepted) {
    const key = `${email.eventId}#${email.recipient}`;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, email);
    else {
      duplicated++;
      if (email.at < seen.at) first.set(key, email);
    }
  }
  return { sent: first.size, duplicated, latencyMs: [...first.values()].map((e) => e.at - raisedAt(e.eventId)).sort((a, b) => a - b) };
}
