import { DestinationPacer, type PaceDecision, type UrgentOrder } from '../../domain/destinationPacer';
import type { PaceRepository } from '../../store/paceRepository';
import type { DestinationSlots } from './destinationSlots';

/**
 * Added to a destination's spacing between instances: sends granted by two instances reach the
 * destination after unequal delays (a store write, a connection), which must not bring two within
 * the API's window.
 */
export const SHARED_PACE_MARGIN_MS = 100;

/**
 * Send slots shared by every channel-worker instance: the instance's own `DestinationPacer`
 * first (a send it already knows must wait costs no request), then a conditional update of the
 * destination's pacing item (`PaceRepository`), which no two instances win for one slot. A
 * destination without spacing (webhooks) is never written.
 */
export class SharedDestinationPacer implements DestinationSlots {
  constructor(
    private readonly store: Pick<PaceRepository, 'grant' | 'reserve' | 'block'>,
    private readonly local = new DestinationPacer(),
  ) {}

  async take(destination: string, spacingMs: number, now: number, urgent = false, order?: UrgentOrder): Promise<PaceDecision> {
    // The order of urgent sends is kept by this instance's own pacer (locally, the one process): not between instances.
    const first = this.local.take(destination, spacingMs, now, urgent, order);
    if (first.kind === 'wait' || spacingMs === 0) return first;
    // An urgent send goes ahead of the slots others reserved, held only by the spacing and an announced wait.
    const shared = await this.store.grant(destination, now, spacingMs + SHARED_PACE_MARGIN_MS, urgent);
    // Refused the shared slot, it still waits: later urgent sends of this instance stay behind it.
    if (shared.kind === 'wait' && urgent) this.local.urgentWaits(destination, spacingMs, now, shared.ms, order);
    return shared;
  }

  async reserve(destination: string, spacingMs: number, now: number): Promise<number> {
    if (spacingMs === 0) return this.local.reserve(destination, spacingMs, now);
    return this.store.reserve(destination, now, spacingMs + SHARED_PACE_MARGIN_MS);
  }

  async takeReserved(destination: string, now: number, spacingMs: number): Promise<PaceDecision> {
    const first = this.local.takeReserved(destination, now);
    if (first.kind === 'wait' || spacingMs === 0) return first;
    return this.store.grant(destination, now, spacingMs + SHARED_PACE_MARGIN_MS, true);
  }

  async block(destination: string, ms: number, now: number): Promise<void> {
    this.local.block(destination, ms, now);
    await this.store.block(destination, now + ms);
  }
}
