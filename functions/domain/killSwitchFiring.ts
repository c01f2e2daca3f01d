import * as z from 'zod';
import { addressSchema, type Address } from './address';
import { protectiveOutcomeSchema } from './delegateProtection';
import { MAX_NOTICE_DELEGATES } from './protectiveDecision';

const count = z.number().int().min(0);

/** What was done when the kill switch fired: the protection service's answer, or nothing to ask. */
export const killSwitchActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('requested'), outcome: protectiveOutcomeSchema }),
  /** No protection service on this deployment: nothing could be revoked. */
  z.object({ kind: z.literal('not-set-up') }),
]);
export type KillSwitchAction = z.infer<typeof killSwitchActionSchema>;

/** The kill-switch firing a notify message carries: the figures it rests on and what was done. */
export const killSwitchFiringSchema = z.object({
  levelPct: z.number().gt(0).lt(100),
  /** The drawdown now at the account's interval, and the lower of the two `1m` minutes up to the crossing, from the held peak. */
  drawdownPct: z.number().min(0).max(100),
  rereadPct: z.number().min(0).max(100),
  peakAt: z.number().int().min(0),
  asOf: z.number().int().min(0),
  /** The reason the decision and the audit carry (`kill-switch: drawdown 31.20% now, 1-minute re-read 30.4% ≥ 30% at ...`). */
  reason: z.string().min(1).max(300),
  /** The delegates asked to be revoked (kept keys and kept web sessions already left out). */
  requested: z.array(addressSchema).max(MAX_NOTICE_DELEGATES),
  /** Web-session keys left alone (`--kill-switch-web-sessions keep`). */
  keptWebSessions: z.array(addressSchema).max(MAX_NOTICE_DELEGATES),
  /** Keys listed that the account keeps (`--keep-delegate`); absent in notices queued before it was carried. */
  keptKeys: z.array(addressSchema).max(MAX_NOTICE_DELEGATES).optional(),
  /** The name each listed key carries (chain-controlled, `null` when unnamed); absent in notices queued before it was carried. */
  names: z
    .array(z.object({ address: addressSchema, name: z.string().max(200).nullable() }))
    .max(MAX_NOTICE_DELEGATES)
    .optional(),
  action: killSwitchActionSchema,
  /**
   * Keys of the firing its lists leave out (each list holds at most `MAX_NOTICE_DELEGATES`): revoked
   * or would have been (`acted`), left listed (`kept`). Absent when every key is listed.
   */
  unlisted: z.object({ acted: count, kept: count }).optional(),
});
export type KillSwitchFiring = z.infer<typeof killSwitchFiringSchema>;

/** Why a firing left a listed key alone. */
export type KeptBecause = 'keep-delegate' | 'announced' | 'web-session';

/** The keys a firing acts on and those it leaves listed, with why. */
export interface FiringKeys {
  /** Revoked, or would have been: the service's list when it queued or ran dry; none when nothing was left to revoke; else every key requested. */
  readonly acted: readonly Address[];
  readonly kept: readonly { readonly address: Address; readonly because: KeptBecause }[];
}

type FiringLists = Pick<KillSwitchFiring, 'requested' | 'keptKeys' | 'keptWebSessions' | 'action'>;

/** Which keys a firing acts on and which it leaves listed (kept by the account, announced, web sessions kept). */
export function firingKeys(firing: FiringLists): FiringKeys {
  const outcome = firing.action.kind === 'requested' ? firing.action.outcome : null;
  const listsActed = outcome !== null && (outcome.kind === 'queued' || outcome.kind === 'dry-run');
  const acted = listsActed ? outcome.delegates : outcome?.kind === 'nothing-to-revoke' ? [] : firing.requested;
  // The service leaves announced keys out of what it revokes: a requested key it did not list was announced.
  const leftOut = listsActed || outcome?.kind === 'nothing-to-revoke';
  const keep = new Set((firing.keptKeys ?? []).map((k) => k.toLowerCase()));
  const actedOn = new Set(acted.map((k) => k.toLowerCase()));
  const notActed = firing.requested.filter((k) => !actedOn.has(k.toLowerCase()));
  return {
    acted,
    kept: [
      ...notActed.filter((k) => keep.has(k.toLowerCase())).map((address) => ({ address, because: 'keep-delegate' as const })),
      ...(leftOut ? notActed.filter((k) => !keep.has(k.toLowerCase())).map((address) => ({ address, because: 'announced' as const })) : []),
      ...firing.keptWebSessions.map((address) => ({ address, because: 'web-session' as const })),
    ],
  };
}

/**
 * A firing as its notice carries it: every list cut to `MAX_NOTICE_DELEGATES` keys and the keys
 * left out counted (`unlisted`), so the notice of a firing on any number of keys is one valid
 * queue message that still counts each key. The cut keeps each list's order: a key listed as
 * requested is then listed as acted on or kept wherever it was, so the notice words it the same.
 */
export function firingForNotice(firing: KillSwitchFiring): KillSwitchFiring {
  const cut = <T>(list: readonly T[]): T[] => list.slice(0, MAX_NOTICE_DELEGATES);
  const outcome = firing.action.kind === 'requested' ? firing.action.outcome : null;
  const longest = Math.max(
    firing.requested.length,
    firing.keptWebSessions.length,
    firing.names?.length ?? 0,
    outcome !== null && 'delegates' in outcome ? outcome.delegates.length : 0,
  );
  if (longest <= MAX_NOTICE_DELEGATES) return firing;
  const all = firingKeys(firing);
  const action: KillSwitchAction =
    outcome !== null && 'delegates' in outcome ? { kind: 'requested', outcome: { ...outcome, delegates: cut(outcome.delegates) } } : firing.action;
  const lists = {
    requested: cut(firing.requested),
    keptWebSessions: cut(firing.keptWebSessions),
    ...(firing.keptKeys === undefined ? {} : { keptKeys: cut(firing.keptKeys) }),
    action,
  };
  const shown = firingKeys(lists);
  // The names of the keys the notice still shows, at most as many as a list.
  const named = new Set([...shown.acted, ...shown.kept.map((k) => k.address)].map((k) => k.toLowerCase()));
  const names = firing.names === undefined ? {} : { names: cut(firing.names.filter((n) => named.has(n.address.toLowerCase()))) };
  return { ...firing, ...lists, ...names, unlisted: { acted: all.acted.length - shown.acted.length, kept: all.kept.length - shown.kept.length } };
}
