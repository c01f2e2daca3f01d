import * as z from 'zod';
import type { LevelState } from './alertMachine';

/** The alert-state rule under which every drawdown level of an account is kept, in one item. */
export const DRAWDOWN_RULE = 'drawdown';

/** The stored state of one drawdown level (see `domain/alertMachine`'s `LevelState`). */
const levelStateSchema = z.object({
  status: z.enum(['armed', 'breached']),
  lastValue: z.number().nullable(),
  lastSentAt: z.number().nullable(),
  breachedAt: z.number().nullable(),
  breachedPct: z.number().optional(),
  baseline: z.boolean().optional(),
  named: z.boolean().optional(),
});

/** The alert-state item of rule `drawdown`: every level of the account, keyed by the level in percent. */
export const drawdownStateSchema = z.object({ levels: z.record(z.string(), levelStateSchema) });

/** One stored level as the alert machine takes it: the optional marks only where set. */
export function levelStateOf({ baseline, named, breachedPct, ...s }: z.output<typeof levelStateSchema>): LevelState {
  return { ...s, ...(baseline ? { baseline } : {}), ...(named ? { named } : {}), ...(breachedPct === undefined ? {} : { breachedPct }) };
}

/** The alert-state item of rule `snooze`: drawdown alerts are muted until `until` (epoch ms). */
export const snoozeStateSchema = z.object({ until: z.number() });
