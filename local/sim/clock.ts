/** Options of the simulated clock. */
export interface ClockOptions {
  /** Simulated time at start, ms since the epoch; defaults to the real time. */
  startMs?: number;
  /** Simulated ms per real ms; 0 means the clock moves only when advanced. Defaults to 1. */
  speed?: number;
}

/**
 * The simulator's notion of "now": real time scaled by a speed factor, plus manual advances.
 * Never goes backwards.
 */
export class SimClock {
  private baseSimMs: number;
  private baseRealMs: number;
  private speedFactor: number;

  constructor(
    options: ClockOptions = {},
    private readonly realNow: () => number = Date.now,
  ) {
    this.baseRealMs = realNow();
    this.baseSimMs = Math.floor(options.startMs ?? this.baseRealMs);
    this.speedFactor = options.speed ?? 1;
    assertSpeed(this.speedFactor);
  }

  /** Current simulated time in integer ms. */
  now(): number {
    return this.baseSimMs + Math.floor((this.realNow() - this.baseRealMs) * this.speedFactor);
  }

  get speed(): number {
    return this.speedFactor;
  }

  /** Moves simulated time forward by `ms` (>= 0). */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.rebase(this.now() + Math.floor(ms));
    return this.now();
  }

  /** Jumps to `ms`, which must not be before the current simulated time. */
  set(ms: number): number {
    const current = this.now();
    if (!Number.isFinite(ms) || ms < current) throw new RangeError(`cannot move the clock back from ${current} to ${ms}`);
    this.rebase(Math.floor(ms));
    return this.now();
  }

  /** Changes the speed factor from now on. */
  setSpeed(speed: number): void {
    assertSpeed(speed);
    this.rebase(this.now());
    this.speedFactor = speed;
  }

  private rebase(simMs: number): void {
    this.baseSimMs = simMs;
    this.baseRealMs = this.realNow();
  }
}

function assertSpeed(speed: number): void {
  if (!Number.isFinite(speed) || speed < 0 || speed > 1_000_000) {
    throw new RangeError(`clock speed must be between 0 and 1000000, got ${speed}`);
  }
}
