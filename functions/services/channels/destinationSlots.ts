import type { PaceDecision, UrgentOrder } from '../../domain/destinationPacer';

/**
 * The channel worker's send slots per destination (`destinationOf`, spaced by its type's `limits.pace`, in ms): the process's own
 * `DestinationPacer`, or `SharedDestinationPacer`, held in DynamoDB for every worker instance.
 */
export interface DestinationSlots {
  /** A send's turn now (`urgent`: a security notice, held only by an announced wait, the spacing and, with `order`, an earlier security notice waiting). */
  take(destination: string, spacingMs: number, now: number, urgent?: boolean, order?: UrgentOrder): PaceDecision | Promise<PaceDecision>;
  /** Reserves the next free slot for a send that must wait; ms until it. */
  reserve(destination: string, spacingMs: number, now: number): number | Promise<number>;
  /** The turn of a send that reserved its slot (it has come). */
  takeReserved(destination: string, now: number, spacingMs: number): PaceDecision | Promise<PaceDecision>;
  /** Holds the destination for an announced wait of `ms`. */
  block(destination: string, ms: number, now: number): void | Promise<void>;
}
