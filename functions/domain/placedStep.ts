/**
 * Where a step's deposit or withdrawal was placed: `refined`, at the minute it happened (the
 * step's `1m` curves chained); `conservative`, not placed (a `1m` account, a failed or unbudgeted
 * refinement, or a flow within one minute), so the step takes the lower of its two placements.
 * A `conservative` step is a marked step: no automatic action rests on it alone.
 */
export type FlowPlacement = 'refined' | 'conservative';

/** The return of the step ending at a point, as collection placed its flow. */
export interface PlacedStep {
  /** The step's return, a fraction (`-0.166` is -16.6%). */
  readonly r: number;
  readonly placement: FlowPlacement;
  /** The step's start: `r` holds only for the step from the point at this time. */
  readonly fromTs: number;
  /**
   * A `conservative` step refined at `1m` whose flow fell within a minute: its return with that
   * flow at its favourable placement. Absent otherwise (an unrefined step's range gives it).
   */
  readonly favourable?: number;
}
