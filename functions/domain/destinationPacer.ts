import type { ChannelType } from './channel';

/**
 * The least spacing between two sends to one destination, below what each API refuses: Slack
 * 1/s per webhook, Telegram 1/s per chat, PagerDuty 120/min per routing key, Discord 5 per 2 s per
 * webhook (its `X-RateLimit-*` headers announce the rest, through the 429 wait). Webhooks: none.
 */
export const DESTINATION_SPACING_MS: Readonly<Record<ChannelType, number>> = {
  slack: 1_000,
  telegram: 1_000,
  pagerduty: 500,
  discord: 400,
  webhook: 0,
};

/** Whether a send may go now, or how long it must wait. */
export type PaceDecision = { kind: 'go' } | { kind: 'wait'; ms: number };

/**
 * Per-destination send slots of one worker process (one destination per channel): `take` grants
 * a slot when the destination's spacing has passed since the last grant and no announced wait
 * (`block`, from a 429) runs. State lives in the process only: instances do not share it, so
 * concurrent instances may still meet a 429, which re-queues the job with the announced wait.
 */
export class DestinationPacer {
  private readonly nextAt = new Map<string, number>();
  private readonly blockedUntil = new Map<string, number>();

  /**
   * Takes the destination's next slot. An `urgent` send (a security notice) is held only by an
   * announced wait, never by the spacing other notices keep: it goes ahead of them, and they wait
   * one spacing after it.
   */
  take(destination: string, type: ChannelType, now: number, urgent = false): PaceDecision {
    const blocked = this.blockedUntil.get(destination) ?? 0;
    if (now < blocked) return { kind: 'wait', ms: blocked - now };
    const next = this.nextAt.get(destination) ?? 0;
    if (now < next && !urgent) return { kind: 'wait', ms: next - now };
    this.nextAt.set(destination, Math.max(next, now) + DESTINATION_SPACING_MS[type]);
    return { kind: 'go' };
  }

  /** Holds the destination until `now + ms` (an announced 429 wait). */
  block(destination: string, ms: number, now: number): void {
    this.blockedUntil.set(destination, Math.max(this.blockedUntil.get(destination) ?? 0, now + ms));
  }
}
