import { createRng, type Rng } from '../prng';
import type { ChainRoute, FaultDecision, FaultKind, FaultProfile, FaultRule } from './faultProfile';

/** Draws faults for chain requests from the current profile, with a seeded generator. */
export class FaultInjector {
  private current: FaultProfile = {};
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = createRng(seed ^ 0x5eed_fa17);
  }

  get profile(): FaultProfile {
    return structuredClone(this.current);
  }

  set(profile: FaultProfile): void {
    this.current = structuredClone(profile);
  }

  reset(): void {
    this.current = {};
  }

  decide(route: ChainRoute): FaultDecision {
    const rule = this.current.routes?.[route] ?? this.current.global;
    if (rule === undefined) return { delayMs: 0, kind: 'ok', retryAfterSeconds: 0 };
    return { delayMs: rule.latencyMs + this.rng.next() * rule.jitterMs, kind: this.kind(rule), retryAfterSeconds: rule.retryAfterSeconds };
  }

  private kind(rule: FaultRule): FaultKind {
    const scripted = rule.script.shift();
    if (scripted !== undefined) return scripted;
    let u = this.rng.next();
    for (const kind of ['error500', 'rateLimit', 'malformed', 'truncate', 'hang'] as const) {
      if (u < rule[kind]) return kind;
      u -= rule[kind];
    }
    return 'ok';
  }
}
