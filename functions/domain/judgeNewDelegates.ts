import type { Address } from './address';
import { openAnnouncements, type DelegateAnnouncement } from './delegateAnnouncement';
import type { ObservedDelegate } from './delegateAlerts';
import type { RevokeUnknownMode } from './revokeUnknownMode';

const DAY_MS = 86_400_000;

/** An unknown delegate seen before: when first, and the decision last asked for it. */
export interface UnknownSeen {
  readonly delegate: string;
  readonly at: number;
  /** The decision the protection service queued for it (absent: none was queued, or seen before decisions were kept). */
  readonly decisionId?: string | undefined;
  /** Whether that decision was the key's judgment again (a key is judged again once per sighting). */
  readonly judgedAgain?: boolean | undefined;
}

/** What the protection state of an account holds besides the mode (see `store/knownDelegatesRepository`). */
export interface KnownDelegateState {
  /** When the known keys were last taken (add, import or arming); `null` while that is still to do. */
  readonly baselineAt: number | null;
  /** Addresses known, in lower case. */
  readonly known: ReadonlySet<string>;
  readonly announcements: readonly DelegateAnnouncement[];
  /**
   * Unknown delegates seen before, and when (for "a second unknown key within a day"); with the
   * decision last asked for each (`decisionId`) and whether that was its judgment again.
   */
  readonly unknownSeen: readonly UnknownSeen[];
}

/** How one newly listed delegate is treated. */
export type DelegateVerdict =
  | { readonly kind: 'known' }
  | { readonly kind: 'announced'; readonly expiresAt: number }
  | { readonly kind: 'unknown'; readonly revoke: boolean; readonly webSession: boolean };

export interface JudgeInput {
  readonly mode: RevokeUnknownMode;
  readonly state: KnownDelegateState;
  /** Every delegate of this (successful) read. */
  readonly current: readonly ObservedDelegate[];
  /** The delegates of this read that the watch found new (listed now, not listed live at the previous check). */
  readonly fresh: readonly ObservedDelegate[];
  /** The delegates the stored views held as listed before this check (what earlier reads saw). */
  readonly listedBefore: readonly string[];
  readonly now: number;
}

export interface JudgeResult {
  /** Per fresh delegate, by address as listed. */
  readonly verdicts: ReadonlyMap<string, DelegateVerdict>;
  /** Addresses to add to the known set: the baseline when it was still to take, and the announced ones now seen. */
  readonly learn: readonly Address[];
  /** Whether this check took the baseline (nothing is unknown on the check that takes it). */
  readonly tookBaseline: boolean;
  /** Fresh unknown delegates, to remember as seen now. */
  readonly unknown: readonly Address[];
  /** Another unknown delegate was seen within the last day (or several at once): the owner key itself is likely held by someone else. */
  readonly repeatWithinDay: boolean;
  /** How many other unknown delegates were first seen within the last day, before this check: the first of `unknown` is the next one. */
  readonly earlierWithinDay: number;
}

const NONE: JudgeResult = { verdicts: new Map(), learn: [], tookBaseline: false, unknown: [], repeatWithinDay: false, earlierWithinDay: 0 };

/**
 * Decides, for the delegates a successful read found new, whether each is known, announced or
 * unknown, and which unknown ones to revoke. Rules:
 * - `off`: nothing is judged (the plain new-delegate notice goes out as before).
 * - Known keys are those present when the account was added, imported or armed. Until that
 *   baseline is taken (the arming read failed or was empty), the first check listing any delegate
 *   takes it from this read together with every delegate earlier reads listed, and calls nothing
 *   unknown. An empty read never takes it: an account armed with no delegate at all gets its
 *   baseline from the first key listed (noticed as a new delegate, as ever).
 * - Only delegates of this read can be unknown, and only if neither known nor announced: a
 *   failed read judges nothing, and an empty or partial one lists no stranger, so a chain
 *   hiccup or a restore never makes a key unknown (a known key that disappears stays known).
 * - An unknown API key is revoked under `api-keys` and `all`; an unknown web session only under
 *   `all` (under `api-keys` it is kept, but always raised).
 * - An announced delegate is kept and becomes known.
 */
export function judgeNewDelegates(input: JudgeInput): JudgeResult {
  if (input.mode === 'off') return NONE;
  const { state, now } = input;
  if (state.baselineAt === null) {
    const learn = uniqueAddresses([...input.current.map((d) => d.address), ...input.listedBefore]);
    // An empty read may be a hiccup: an empty baseline would make every key unknown once they are listed again.
    if (learn.length === 0) return NONE;
    const verdicts = new Map<string, DelegateVerdict>(input.fresh.map((d) => [d.address, { kind: 'known' }]));
    return { verdicts, learn, tookBaseline: true, unknown: [], repeatWithinDay: false, earlierWithinDay: 0 };
  }
  const open = openAnnouncements(state.announcements, now);
  const verdicts = new Map<string, DelegateVerdict>();
  const learn: Address[] = [];
  const unknown: Address[] = [];
  for (const d of input.fresh) {
    const key = d.address.toLowerCase();
    const announced = open.get(key);
    if (state.known.has(key)) verdicts.set(d.address, { kind: 'known' });
    else if (announced) {
      verdicts.set(d.address, { kind: 'announced', expiresAt: announced.expiresAt });
      learn.push(d.address as Address);
    } else {
      verdicts.set(d.address, { kind: 'unknown', webSession: d.isWebClient, revoke: !d.isWebClient || input.mode === 'all' });
      unknown.push(d.address as Address);
    }
  }
  const earlier = state.unknownSeen.filter((u) => u.at > now - DAY_MS && u.at <= now && !unknown.some((a) => a.toLowerCase() === u.delegate.toLowerCase()));
  const repeatWithinDay = unknown.length > 0 && earlier.length + unknown.length >= 2;
  return { verdicts, learn: uniqueAddresses(learn), tookBaseline: false, unknown, repeatWithinDay, earlierWithinDay: earlier.length };
}

function uniqueAddresses(addresses: readonly string[]): Address[] {
  const byKey = new Map<string, Address>();
  for (const a of addresses) if (!byKey.has(a.toLowerCase())) byKey.set(a.toLowerCase(), a as Address);
  return [...byKey.values()];
}
