import { S, addTradingPnl } from './state';

/**
 * Something that happens to an account. `minute` (minutes since the epoch) is the first
 * snapshot that shows it.
 * `flow`: a deposit (+) or withdrawal (-): equity moves, PnL does not.
 * `shock`: an instant trading loss of `pct` % of equity.
 * `drift`: an extra trading return on every minute in (startMinute, endMinute], compounding to
 * `totalPct` % over the span.
 */
export type ModelEvent =
  | { kind: 'flow'; minute: number; amount: number }
  | { kind: 'shock'; minute: number; pct: number }
  | { kind: 'drift'; startMinute: number; endMinute: number; totalPct: number };

export type PointEvent = Extract<ModelEvent, { minute: number }>;
export type DriftEvent = Extract<ModelEvent, { kind: 'drift' }>;

/** Events relevant to minutes (fromMinute, toMinute]. */
export interface EventWindow {
  points: PointEvent[];
  drifts: { startMinute: number; endMinute: number; perMinute: number }[];
}

const NO_EVENTS: EventWindow = { points: [], drifts: [] };

export function eventWindow(events: readonly ModelEvent[], fromMinute: number, toMinute: number): EventWindow {
  if (events.length === 0) return NO_EVENTS;
  const points: PointEvent[] = [];
  const drifts: EventWindow['drifts'] = [];
  for (const e of events) {
    if (e.kind === 'drift') {
      if (e.endMinute > fromMinute && e.startMinute < toMinute) {
        drifts.push({ ...e, perMinute: (1 + e.totalPct / 100) ** (1 / (e.endMinute - e.startMinute)) - 1 });
      }
    } else if (e.minute > fromMinute && e.minute <= toMinute) {
      points.push(e);
    }
  }
  return { points, drifts };
}

/** Product of (1 + drift return) over the minutes (fromMinute, toMinute]. */
export function driftFactor(window: EventWindow, fromMinute: number, toMinute: number): number {
  let factor = 1;
  for (const d of window.drifts) {
    const minutes = Math.min(toMinute, d.endMinute) - Math.max(fromMinute, d.startMinute);
    if (minutes > 0) factor *= (1 + d.perMinute) ** minutes;
  }
  return factor;
}

/** Growth factor from drifts on one minute (1 when none is active). */
export function driftAt(window: EventWindow, minute: number): number {
  let factor = 1;
  for (const d of window.drifts) if (minute > d.startMinute && minute <= d.endMinute) factor *= 1 + d.perMinute;
  return factor;
}

/** Applies a flow or shock to a snapshot in place. */
export function applyPointEvent(state: Float64Array, event: PointEvent): void {
  if (event.kind === 'flow') {
    state[S.equity] = (state[S.equity] ?? 0) + event.amount;
    state[S.netFlows] = (state[S.netFlows] ?? 0) + event.amount;
  } else {
    addTradingPnl(state, (-(state[S.equity] ?? 0) * event.pct) / 100);
  }
}
