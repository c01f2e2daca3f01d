/**
 * A destination's backlog is combined once a notice would wait longer than this for its slot
 * (a minute of the destination's limit is queued ahead of it): the waiting notices go as one
 * summary message instead of one by one, late.
 */
export const COMBINE_AFTER_MS = 60_000;

/** Whether a send may go now, or how long it must wait. */
export type PaceDecision = { kind: 'go' } | { kind: 'wait'; ms: number };

/**
 * Per-destination send slots of one worker process (one destination per channel): `take` grants
 * a slot when the destination's spacing (ms, its type's `limits.pace`) has passed since the last grant and no announced wait
 * (`block`, from a 429) runs. State lives in the process only: instances do not share it, so
 * concurrent instances may still meet a 429, which re-queues the job with the announced wait.
 */
export class DestinationPacer {
  private readonly nextAt = new Map<string, number>();
  private readonly blockedUntil = new Map<string, number>();
  private readonly lastGrantAt = new Map<string, number>();
  /** While an urgent send waits for its turn, other sends (reserved ones included) hold back until this time. */
  private readonly urgentUntil = new Map<string, number>();

  /**
   * Takes the destination's next slot. An `urgent` send (a security notice) is held only by an
   * announced wait and the spacing since the last send, never by the slots other notices
   * reserved: while it waits, they hold back, so it goes ahead of them and they follow after.
   */
  take(destination: string, spacing: number, now: number, urgent = false): PaceDecision {
    const blocked = this.blockedUntil.get(destination) ?? 0;
    if (urgent) {
      const ready = Math.max(blocked, (this.lastGrantAt.get(destination) ?? -Infinity) + spacing);
      if (now < ready) {
        // The job comes back after whole seconds (queue delays): the others wait past that, one spacing more.
        const back = now + Math.ceil((ready - now) / 1_000) * 1_000;
        this.urgentUntil.set(destination, Math.max(this.urgentUntil.get(destination) ?? 0, back + spacing));
        return { kind: 'wait', ms: ready - now };
      }
      return this.grant(destination, now, spacing);
    }
    const held = Math.max(blocked, this.urgentUntil.get(destination) ?? 0);
    if (now < held) return { kind: 'wait', ms: held - now };
    const next = this.nextAt.get(destination) ?? 0;
    if (now < next) return { kind: 'wait', ms: next - now };
    return this.grant(destination, now, spacing);
  }

  private grant(destination: string, now: number, spacing: number): PaceDecision {
    this.nextAt.set(destination, Math.max(this.nextAt.get(destination) ?? 0, now) + spacing);
    this.lastGrantAt.set(destination, now);
    return { kind: 'go' };
  }

  /**
   * Reserves the destination's next free slot for a send that must wait, and returns how long
   * until it (after any announced wait). The send then goes with `takeReserved` at that time, so
   * waiting sends are spread over their slots instead of all retrying at once.
   */
  reserve(destination: string, spacing: number, now: number): number {
    const at = Math.max(now, this.nextAt.get(destination) ?? 0, this.blockedUntil.get(destination) ?? 0, this.urgentUntil.get(destination) ?? 0);
    this.nextAt.set(destination, at + spacing);
    return at - now;
  }

  /** A send whose slot was reserved: held only by an announced wait or an urgent send begun since. */
  takeReserved(destination: string, now: number): PaceDecision {
    const held = Math.max(this.blockedUntil.get(destination) ?? 0, this.urgentUntil.get(destination) ?? 0);
    if (now < held) return { kind: 'wait', ms: held - now };
    this.lastGrantAt.set(destination, now);
    return { kind: 'go' };
  }

  /** Holds the destination until `now + ms` (an announced 429 wait). */
  block(destination: string, ms: number, now: number): void {
    this.blockedUntil.set(destination, Math.max(this.blockedUntil.get(destination) ?? 0, now + ms));
  }
}
