import type { PlacedStep } from '../domain/placedStep';

/**
 * One stored curve point: equity and/or PnL at `ts` (ms), as the chain wrote them, and, on a
 * step that held a deposit or withdrawal, the step's return as collection placed it.
 */
export interface StoredCurvePoint {
  readonly ts: number;
  readonly equity?: string;
  readonly pnl?: string;
  readonly step?: PlacedStep;
}
