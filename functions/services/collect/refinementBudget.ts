import type { Settings } from '../../config/settings';
import { BACKFILL_SHARE } from './backfillBudget';

/**
 * Chain requests the flow refinements of one collect process may take (`placeFlows`): up to a
 * minute's worth of `BACKFILL_SHARE` of `CHAIN_RPS`, refilled continuously. Never waited for: a
 * refinement that does not fit now is not made, and its step is placed conservatively.
 */
export class RefinementBudget {
  readonly perMinute: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(perMinute: number, now: () => number) {
    if (!(perMinute >= 1) || !Number.isFinite(perMinute)) throw new RangeError(`perMinute must be at least 1, got ${perMinute}`);
    this.perMinute = perMinute;
    this.#now = now;
    this.#tokens = perMinute;
    this.#last = now();
  }

  /** Takes `requests` from the budget if they are there now; `false` (and nothing taken) otherwise. */
  tryTake(requests: number): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.perMinute, this.#tokens + (Math.max(0, now - this.#last) / 60_000) * this.perMinute);
    this.#last = now;
    if (this.#tokens < requests) return false;
    this.#tokens -= requests;
    return true;
  }
}

/** The refinement budget of a process at the settings' `CHAIN_RPS`. */
export function refinementBudgetFrom(settings: Pick<Settings, 'CHAIN_RPS'>, now: () => number): RefinementBudget {
  return new RefinementBudget(Math.max(1, Math.floor(settings.CHAIN_RPS * 60 * BACKFILL_SHARE)), now);
}
