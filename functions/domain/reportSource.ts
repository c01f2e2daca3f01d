/**
 * Where a report's figures come from: the chain (its windows' summaries and curves), or, when the
 * chain did not answer within the grace, what is stored: the curves collected until then and, for
 * the chain's longer-window metrics, the latest report record before it.
 */
export type ReportSource =
  | { readonly kind: 'chain' }
  | {
      readonly kind: 'stored';
      /** When the chain's reads were given up (the grace over). */
      readonly chainFailedAt: number;
      /** The newest stored curve point the figures reach; `null` without one. */
      readonly storedAsOf: number | null;
      /** The covered date of the report record whose 7- and 30-day metrics are shown; `null` when none is (a summary, or no earlier report). */
      readonly metricsFrom: string | null;
    };

/** The chain answered: every figure is the chain's. */
export const FROM_CHAIN: ReportSource = { kind: 'chain' };
