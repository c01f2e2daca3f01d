import { createRng, mixSeeds, type Rng } from '../prng';
import { applyPointEvent, driftFactor, eventWindow, type ModelEvent, type PointEvent } from './events';
import type { AccountParams } from './params';
import { HOURS_PER_DAY, MINUTES_PER_HOUR, S, STRIDE, addTradingPnl } from './state';
import { walkHour } from './walkHour';

/**
 * One simulated day at hourly resolution, in a single array: the snapshot at each whole hour
 * (hour h at `h * STRIDE`, hour 0 being midnight), then the snapshot at the following midnight
 * (at `NEXT_OFFSET`), then the random log return drawn for each hour (at `LOG_RETURN_OFFSET`),
 * which the minute walk of that hour needs.
 */
export type DayBlock = Float64Array;

export const NEXT_OFFSET = HOURS_PER_DAY * STRIDE;
export const LOG_RETURN_OFFSET = NEXT_OFFSET + STRIDE;
const BLOCK_LENGTH = LOG_RETURN_OFFSET + HOURS_PER_DAY;

/** An empty day block, e.g. to reuse as scratch space. */
export function newDayBlock(): DayBlock {
  return new Float64Array(BLOCK_LENGTH);
}

/** The snapshot at the first minute of history. */
export function initialSnapshot(params: AccountParams): Float64Array {
  const snapshot = new Float64Array(STRIDE);
  snapshot[S.equity] = params.capital;
  snapshot[S.side] = params.initialSide;
  return snapshot;
}

/**
 * Steps an account through `day` (days since the epoch) an hour at a time from its midnight
 * snapshot. An hour without flows or shocks inside it is one closed-form step (its return is
 * the same as its minute walk's); an hour with some is walked minute by minute. Funding, trades
 * and events that fall on the whole hour happen at its end. Deterministic in its inputs; events
 * outside the day are ignored. `into` (from `newDayBlock`) is overwritten when given.
 */
export function generateDay(
  params: AccountParams,
  day: number,
  start: Float64Array,
  events: readonly ModelEvent[],
  into: DayBlock = new Float64Array(BLOCK_LENGTH),
): DayBlock {
  const rng = createRng(mixSeeds(params.hash, day));
  const block = into;
  const dayMinute = day * HOURS_PER_DAY * MINUTES_PER_HOUR;
  const window = eventWindow(events, dayMinute, dayMinute + HOURS_PER_DAY * MINUTES_PER_HOUR);
  const sigma = params.sigmaPerMinute;
  const state = block.subarray(NEXT_OFFSET, NEXT_OFFSET + STRIDE);
  state.set(start.subarray(0, STRIDE));

  for (let h = 0; h < HOURS_PER_DAY; h += 1) {
    block.copyWithin(h * STRIDE, NEXT_OFFSET, NEXT_OFFSET + STRIDE);
    const hour = day * HOURS_PER_DAY + h;
    const from = hour * MINUTES_PER_HOUR;
    const to = from + MINUTES_PER_HOUR;
    const logReturn = (params.muPerMinute - (sigma * sigma) / 2) * MINUTES_PER_HOUR + sigma * Math.sqrt(MINUTES_PER_HOUR) * rng.normal();
    block[LOG_RETURN_OFFSET + h] = logReturn;
    if (hasPointInside(window.points, from, to)) {
      state.set(walkHour(params, hour, logReturn, state, window));
    } else {
      const growth = Math.exp(logReturn) * driftFactor(window, from, to);
      addTradingPnl(state, (growth - 1) * (state[S.equity] ?? 0));
    }
    settleHour(state, params, rng);
    for (const event of window.points) if (event.minute === to) applyPointEvent(state, event);
  }
  return block;
}

/** Funding, then this hour's trades: the first closes the position (a win or a loss). */
function settleHour(state: Float64Array, params: AccountParams, rng: Rng): void {
  const rate = params.fundingMean + params.fundingVolatility * rng.normal();
  const payment = -(state[S.side] ?? 1) * (state[S.equity] ?? 0) * params.leverage * rate;
  state[S.equity] = (state[S.equity] ?? 0) + payment;
  state[S.pnl] = (state[S.pnl] ?? 0) + payment;
  state[S.funding] = (state[S.funding] ?? 0) + payment;

  const expected = params.tradesPerHour;
  const count = Math.floor(expected) + (rng.next() < expected - Math.floor(expected) ? 1 : 0);
  for (let i = 0; i < count; i += 1) {
    state[S.trades] = (state[S.trades] ?? 0) + 1;
    state[S.volume] = (state[S.volume] ?? 0) + Math.max(0, state[S.equity] ?? 0) * params.leverage * (0.2 + 0.8 * rng.next());
    if (i > 0) continue;
    const open = state[S.openPnl] ?? 0;
    if (open > 0) {
      state[S.wins] = (state[S.wins] ?? 0) + 1;
      state[S.sumWin] = (state[S.sumWin] ?? 0) + open;
    } else if (open < 0) {
      state[S.losses] = (state[S.losses] ?? 0) + 1;
      state[S.sumLoss] = (state[S.sumLoss] ?? 0) + open;
    }
    state[S.openPnl] = 0;
    if (rng.next() < 0.45) state[S.side] = -(state[S.side] ?? 1);
  }
}

function hasPointInside(points: readonly PointEvent[], fromMinute: number, toMinute: number): boolean {
  for (const e of points) if (e.minute > fromMinute && e.minute < toMinute) return true;
  return false;
}
