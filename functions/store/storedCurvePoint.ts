/** One stored curve point: equity and/or PnL at `ts` (ms), as the chain wrote them. */
export interface StoredCurvePoint {
  readonly ts: number;
  readonly equity?: string;
  readonly pnl?: string;
}
