import * as z from 'zod';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addressSchema } from '../domain/address';
import type { ProtectiveRule } from '../domain/protectiveAction';
import { BREAKER_WINDOW_MS, CAP_WINDOW_MS, withinWindow, type CountedAction } from '../domain/protectiveDecision';
import { AlertStateRepository } from './alertStateRepository';
import type { RepositoryOptions } from './repositoryOptions';
import { StoreError } from './errors';

/** The `alerts` item of an account's counted actions of one rule. */
export const capRule = (rule: ProtectiveRule): string => `protection-cap#${rule}`;
/** The stage-wide item of counted firings (the breaker), under this partition of the `alerts` table. */
export const BREAKER_ADDRESS = 'stage';
export const BREAKER_RULE = 'protection-breaker';

const entriesSchema = z.object({
  entries: z.array(z.object({ decisionId: z.string().min(1), account: addressSchema, at: z.number().int().min(0) })),
});

/** How often a conflicting concurrent write is retried before giving up. */
const MAX_ATTEMPTS = 8;

/**
 * The counted automatic actions (table `alerts`): per account and rule over a rolling day (the
 * caps), and stage-wide over an hour (the breaker). Each count is a compare-and-set on a
 * versioned item, so two evaluations never both take the last place under a cap.
 */
export class ProtectionLedgerRepository {
  private readonly alerts: AlertStateRepository;

  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    this.alerts = new AlertStateRepository(client, prefix, options);
  }

  /**
   * Counts `units` actions of `decisionId` against the account's cap of `rule` (`limit` per
   * rolling day) if they fit; `capped` (nothing counted) when they do not.
   */
  async countCapped(
    rule: ProtectiveRule,
    action: CountedAction,
    units: number,
    limit: number,
  ): Promise<{ kind: 'counted' } | { kind: 'capped'; used: number }> {
    let used = 0;
    const counted = await this.count(action.account, capRule(rule), CAP_WINDOW_MS, action.at, (live) => {
      used = live.length;
      return live.length + units > limit ? null : [...live, ...Array.from({ length: units }, () => action)];
    });
    return counted === null ? { kind: 'capped', used } : { kind: 'counted' };
  }

  /**
   * Counts a firing of `action.account` stage-wide (kept even when the breaker opens, so it stays
   * open for the hour) and returns the firings of the last hour.
   */
  async countFiring(action: CountedAction): Promise<CountedAction[]> {
    return (await this.count(BREAKER_ADDRESS, BREAKER_RULE, BREAKER_WINDOW_MS, action.at, (live) => [...live, action])) ?? [];
  }

  /** The counted actions of an account's cap of `rule` within the day before `now`. */
  async capEntries(account: string, rule: ProtectiveRule, now: number): Promise<CountedAction[]> {
    return this.read(account, capRule(rule), CAP_WINDOW_MS, now);
  }

  /** The firings counted stage-wide within the hour before `now`. */
  async firings(now: number): Promise<CountedAction[]> {
    return this.read(BREAKER_ADDRESS, BREAKER_RULE, BREAKER_WINDOW_MS, now);
  }

  private async read(address: string, rule: string, windowMs: number, now: number): Promise<CountedAction[]> {
    const state = await this.alerts.get(address, rule);
    return withinWindow(state ? parse(state.state) : [], now, windowMs);
  }

  /** Writes what `decide` makes of the live entries (`null`: nothing, refused), by compare-and-set; returns what was written. */
  private async count(
    address: string,
    rule: string,
    windowMs: number,
    now: number,
    decide: (live: CountedAction[]) => CountedAction[] | null,
  ): Promise<CountedAction[] | null> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const state = await this.alerts.get(address, rule);
      const live = withinWindow(state ? parse(state.state) : [], now, windowMs);
      const entries = decide(live);
      if (entries === null) return null;
      const written = await this.alerts.compareAndSet(address, rule, state?.version ?? null, { entries });
      if (written.kind === 'written') return entries;
    }
    throw new StoreError('protection.count', `the count of ${rule} kept changing under ${MAX_ATTEMPTS} attempts`, { retryable: true });
  }
}

function parse(state: Record<string, unknown>): CountedAction[] {
  const parsed = entriesSchema.safeParse(state);
  return parsed.success ? parsed.data.entries : [];
}
