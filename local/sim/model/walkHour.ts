import { createRng, mixSeeds } from '../prng';
import { applyPointEvent, driftAt, type EventWindow } from './events';
import type { AccountParams } from './params';
import { MINUTES_PER_HOUR, STRIDE, S, addTradingPnl } from './state';

/**
 * Walks one hour minute by minute from the snapshot at its start. The random part of the log
 * returns is a Brownian bridge that sums to `logReturn`, the hour's return drawn by the hourly
 * pass, so the walk ends where the hourly pass does. Flows and shocks strictly inside the hour
 * are applied after their minute's return; the hour's last minute gets only its return (events
 * on the whole hour, funding and trades are the hourly pass's business).
 * When `detail` is given (`MINUTES_PER_HOUR * STRIDE` numbers), minute k's snapshot is written
 * at `k * STRIDE`, minute 0 being `start`.
 */
export function walkHour(
  params: AccountParams,
  hour: number,
  logReturn: number,
  start: Float64Array,
  window: EventWindow,
  detail?: Float64Array,
): Float64Array {
  const rng = createRng(mixSeeds(params.hash ^ 0x0b1d6e55, hour));
  const walk = new Float64Array(MINUTES_PER_HOUR + 1);
  for (let k = 1; k <= MINUTES_PER_HOUR; k += 1) walk[k] = (walk[k - 1] ?? 0) + rng.normal();
  const end = walk[MINUTES_PER_HOUR] ?? 0;
  const state = Float64Array.from(start.subarray(0, STRIDE));
  detail?.set(state, 0);
  const firstMinute = hour * MINUTES_PER_HOUR;
  let previous = 0;
  for (let k = 1; k <= MINUTES_PER_HOUR; k += 1) {
    const fraction = k / MINUTES_PER_HOUR;
    const level = fraction * logReturn + params.sigmaPerMinute * ((walk[k] ?? 0) - fraction * end);
    const minute = firstMinute + k;
    const growth = Math.exp(level - previous) * driftAt(window, minute);
    previous = level;
    addTradingPnl(state, (growth - 1) * (state[S.equity] ?? 0));
    if (k === MINUTES_PER_HOUR) break;
    for (const event of window.points) if (event.minute === minute) applyPointEvent(state, event);
    detail?.set(state, k * STRIDE);
  }
  return state;
}
