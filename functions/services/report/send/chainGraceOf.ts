import { setTimeout as sleepTimer } from 'node:timers/promises';
import { DEFAULT_STORED_DATA_GRACE_MS, type ChainGrace } from '../compose/chainGrace';
import type { ReportDeps } from './reportDeps';

/** The chain grace of a report due at `dueAt` (a scheduled job's); without `dueAt` (forced, CLI) the report never falls back to stored data. */
export function chainGraceOf(deps: Pick<ReportDeps, 'now' | 'sleep' | 'storedDataGraceMs'>, dueAt: number | undefined): ChainGrace {
  return {
    fallbackFrom: dueAt === undefined ? null : dueAt + (deps.storedDataGraceMs ?? DEFAULT_STORED_DATA_GRACE_MS),
    now: deps.now,
    sleep: deps.sleep ?? ((ms) => sleepTimer(ms).then(() => undefined)),
  };
}
