/**
 * A destination's backlog is combined once a notice would wait longer than this for its slot
 * (a minute of the destination's limit is queued ahead of it): the waiting notices go as one
 * summary message instead of one by one, late.
 */
export const COMBINE_AFTER_MS = 60_000;

/** Whether a send may go now, or how long it must wait. */
export type PaceDecision = { kind: 'go' } | { kind: 'wait'; ms: number };

/** Which notice an urgent send is, and when it was made: urgent sends to a destination go in that order. */
export interface UrgentOrder {
  readonly id: string;
  readonly at: number;
}

/**
 * How long past its due time a waiting urgent send still holds back later ones: a queue's delay
 * is not exact, and a result must not overtake the notice it follows ("being revoked").
 */
export const URGENT_ORDER_GRACE_MS = 5_000;

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
  /** Urgent sends waiting for their turn, per destination by notice id: the notice's time and when the send is due back. */
  private readonly urgentWaiting = new Map<string, Map<string, { at: number; dueAt: number }>>();

  /**
   * Takes the destination's next slot. An `urgent` send (a security notice) is held only by an
   * announced wait and the spacing since the last send, never by the slots other notices
   * reserved: while it waits, they hold back, so it goes ahead of them and they follow after.
   * With `order`, urgent sends keep the order of their notices: one made later waits while an
   * earlier one waits for its turn (until it is sent, or `URGENT_ORDER_GRACE_MS` past its due time),
   * so a decision's result never overtakes its "being revoked" notice.
   */
  take(destination: string, spacing: number, now: number, urgent = false, order?: UrgentOrder): PaceDecision {
    const blocked = this.blockedUntil.get(destination) ?? 0;
    if (urgent) {
      const earlier = order === undefined ? 0 : this.earlierUrgent(destination, order, now, spacing);
      const ready = Math.max(blocked, (this.lastGrantAt.get(destination) ?? -Infinity) + spacing, earlier);
      if (now < ready) {
        this.urgentWaits(destination, spacing, now, ready - now, order);
        return { kind: 'wait', ms: ready - now };
      }
      if (order !== undefined) this.urgentWaiting.get(destination)?.delete(order.id);
      return this.grant(destination, now, spacing);
    }
    const held = Math.max(blocked, this.urgentUntil.get(destination) ?? 0);
    if (now < held) return { kind: 'wait', ms: held - now };
    const next = this.nextAt.get(destination) ?? 0;
    if (now < next) return { kind: 'wait', ms: next - now };
    return this.grant(destination, now, spacing);
  }

  /**
   * An urgent send told to wait `ms` (by this pacer, or by the slot shared between instances after
   * this pacer let it go): the others hold back past its return, and, with `order`, later urgent
   * sends wait behind it until it is sent.
   */
  urgentWaits(destination: string, spacing: number, now: number, ms: number, order?: UrgentOrder): void {
    // The job comes back after whole seconds (queue delays): the others wait past that, one spacing more.
    const back = now + Math.ceil(ms / 1_000) * 1_000;
    this.urgentUntil.set(destination, Math.max(this.urgentUntil.get(destination) ?? 0, back + spacing));
    if (order !== undefined) this.waitingAt(destination).set(order.id, { at: order.at, dueAt: back });
  }

  /** When an urgent send of a notice made before `order` that still waits will have gone (0: none waits). */
  private earlierUrgent(destination: string, order: UrgentOrder, now: number, spacing: number): number {
    const waiting = this.urgentWaiting.get(destination);
    if (waiting === undefined) return 0;
    let until = 0;
    for (const [id, send] of waiting) {
      if (now >= send.dueAt + spacing + URGENT_ORDER_GRACE_MS) waiting.delete(id);
      else if (id !== order.id && (send.at < order.at || (send.at === order.at && id < order.id)))
        // Due back and not sent yet (a late queue): look again a second later.
        until = Math.max(until, send.dueAt + spacing, now < send.dueAt + spacing ? 0 : now + 1_000);
    }
    return until;
  }

  private waitingAt(destination: string): Map<string, { at: number; dueAt: number }> {
    let waiting = this.urgentWaiting.get(destination);
    if (waiting === undefined) this.urgentWaiting.set(destination, (waiting = new Map()));
    return waiting;
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
