import type { LevelState } from './alertMachine';

/**
 * One account of an onboarding batch (the accounts one `accounts add` or `accounts import` run
 * created: they share `createdAt`), as the batch notice sees it.
 */
export interface BatchMember {
  readonly address: string;
  readonly label: string | null;
  /** Its first poll ended, collected or failed (`TrackedAccount.polled`). */
  readonly settled: boolean;
  /** Its drawdown levels' stored states (`null`: never evaluated). */
  readonly levels: Readonly<Record<string, LevelState>> | null;
}

/** An account already past a drawdown level when tracking began, still breached. */
export interface OnboardingBreach {
  readonly address: string;
  readonly label: string | null;
  /** Its drawdown at the last evaluation, percent. */
  readonly drawdownPct: number;
  /** The deepest level breached before tracking, and every such level, ascending. */
  readonly level: number;
  readonly levels: readonly number[];
}

/** The batch of accounts created at `createdAt`: the id the batch notice is delivered under (with the recipient or channel). */
export function onboardingBatchId(createdAt: number): string {
  return `onboarding:${createdAt}`;
}

/** Whether every account of the batch had its first poll: the batch notice waits for that, so it lists the whole batch once. */
export function batchSettled(members: readonly BatchMember[]): boolean {
  return members.every((m) => m.settled);
}

/** The member's levels breached before tracking and still breached (a level that recovered since is left out), or `null`. */
export function baselineBreach(member: BatchMember): OnboardingBreach | null {
  const held = Object.entries(member.levels ?? {})
    .filter(([, s]) => s.status === 'breached' && s.baseline === true && s.lastValue !== null)
    .map(([level, s]) => ({ level: Number(level), value: s.lastValue ?? 0 }))
    .sort((a, b) => a.level - b.level);
  const deepest = held[held.length - 1];
  if (!deepest) return null;
  return {
    address: member.address,
    label: member.label,
    drawdownPct: Math.max(...held.map((h) => h.value)),
    level: deepest.level,
    levels: held.map((h) => h.level),
  };
}

/** Worst first: the deepest drawdown, then the deepest level, then by label and address (a stable order). */
export function worstFirst(breaches: readonly OnboardingBreach[]): OnboardingBreach[] {
  return [...breaches].sort(
    (a, b) => b.drawdownPct - a.drawdownPct || b.level - a.level || (a.label ?? '').localeCompare(b.label ?? '') || a.address.localeCompare(b.address),
  );
}

/**
 * The breaches each audience (a recipient, a channel) is told of, worst first: `audienceOf` names
 * who gets an account's drawdown notices. An audience of no breached account is absent.
 */
export function breachesByAudience(breaches: readonly OnboardingBreach[], audienceOf: (address: string) => readonly string[]): Map<string, OnboardingBreach[]> {
  const grouped = new Map<string, OnboardingBreach[]>();
  for (const breach of worstFirst(breaches)) {
    for (const who of new Set(audienceOf(breach.address))) grouped.set(who, [...(grouped.get(who) ?? []), breach]);
  }
  return grouped;
}
