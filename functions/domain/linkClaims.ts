import * as z from 'zod';
import { addressSchema } from './address';
import { channelNameSchema } from './channel';
import { timestampMsSchema } from './curvePoint';
import { deskReturnPathSchema } from './deskReturnPath';
import { oneClickCategorySchema } from './mailCategory';

/** What an action link does. */
export const LINK_PURPOSES = [
  'revoke',
  'revoke-all',
  'unsubscribe',
  'snooze',
  'preferences',
  'security-off',
  'channel-snooze',
  'channel-preferences',
  'desk-sign-in',
] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

const HOUR_MS = 3_600_000;

/**
 * How long a link works unless told otherwise: revocation and snooze links briefly; preferences
 * links (every footer; they can turn every category off) a week, renewed by email from their page;
 * a security-off confirmation (mailed to the mailbox) a day; unsubscribe links (one category, in
 * `List-Unsubscribe`) a year.
 */
export const DEFAULT_LINK_TTL_MS: Readonly<Record<LinkPurpose, number>> = {
  revoke: 72 * HOUR_MS,
  'revoke-all': 72 * HOUR_MS,
  snooze: 72 * HOUR_MS,
  unsubscribe: 365 * 24 * HOUR_MS,
  preferences: 7 * 24 * HOUR_MS,
  'security-off': 24 * HOUR_MS,
  'channel-snooze': 72 * HOUR_MS,
  'channel-preferences': 7 * 24 * HOUR_MS,
  // A sign-in link to the desk page: mailed on request, used at once.
  'desk-sign-in': 15 * 60_000,
};

/**
 * Purposes whose links carry `issuedAt`, so a link epoch (`linksRevokedAt`) can void them: the
 * recipient's for preferences and security-off links, the channel's for a chat's buttons, the
 * recipient's desk sessions epoch for a desk sign-in link.
 */
export const EPOCH_PURPOSES = ['preferences', 'security-off', 'channel-snooze', 'channel-preferences', 'desk-sign-in'] as const;

/** Longest snooze a link may carry. */
export const MAX_SNOOZE_HOURS = 30 * 24;

const base = {
  account: addressSchema,
  /** Instant after which the link no longer works, ms. */
  expiresAt: timestampMsSchema,
  /** Random id from the caller; a consumed link is recorded under it. */
  tokenId: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, '16 to 128 base64url characters'),
};

/**
 * What binds a revoke or revoke-all link posted to a channel (chat, pager, webhook) to it: the
 * channel's name and when the link was issued, checked against the channel's link epoch and its
 * creation (`voidedChannelLink`), so `channels revoke-links` and `channels remove` void it. An
 * email's links carry neither.
 */
const chatBinding = { channel: channelNameSchema.optional(), issuedAt: timestampMsSchema.optional() };

/**
 * The claims a signed link carries, by purpose. Objects are strict: a claim set with an unknown
 * field, or a field of another purpose, is rejected. Addresses come out checksummed.
 */
export const linkClaimsSchema = z.discriminatedUnion('purpose', [
  /** Removes one delegate. Posted to a chat, pager or webhook, it names that `channel` (see `chatBinding`). */
  z.strictObject({ purpose: z.literal('revoke'), ...base, delegate: addressSchema, ...chatBinding }),
  /**
   * Removes every delegate of the account that its confirmation page listed. Reusable until it
   * expires: each delegate is a single-use unit of its own (see `revokeAllUnitId`). Posted to a
   * channel, it names it as a revoke link does.
   */
  z.strictObject({ purpose: z.literal('revoke-all'), ...base, ...chatBinding }),
  /**
   * Stops one category of mail to `email` (never `security`). Links sent before categories
   * existed carry none: they stop every category but `security`.
   */
  z.strictObject({ purpose: z.literal('unsubscribe'), ...base, email: z.email(), category: oneClickCategorySchema.optional() }),
  /**
   * Snoozes drawdown alerts of the account for `email` only (the recipient the link was sent to).
   * Links sent before recipients were bound carry no `email`: they snooze nothing (the page says
   * the link is from an older email).
   */
  z.strictObject({ purpose: z.literal('snooze'), ...base, snoozeHours: z.number().int().min(1).max(MAX_SNOOZE_HOURS), email: z.email().optional() }),
  /**
   * Opens the email preferences of `email` (reusable until it expires). `issuedAt` is compared
   * with the recipient's link epoch on every read; links from before it carried none count as
   * issued at 0 (void once any epoch is set).
   */
  z.strictObject({ purpose: z.literal('preferences'), ...base, email: z.email(), issuedAt: timestampMsSchema.optional() }),
  /** Confirms, from the mailbox it was sent to, that `email` turns security notices off. */
  z.strictObject({ purpose: z.literal('security-off'), ...base, email: z.email(), issuedAt: timestampMsSchema }),
  /**
   * Snoozes the drawdown alerts of the account in `channel` only (a chat's Snooze button); works
   * once. `issuedAt` is checked against the channel's link epoch (absent on links from before it).
   */
  z.strictObject({
    purpose: z.literal('channel-snooze'),
    ...base,
    channel: channelNameSchema,
    snoozeHours: z.number().int().min(1).max(MAX_SNOOZE_HOURS),
    issuedAt: timestampMsSchema.optional(),
  }),
  /**
   * Opens the categories `channel` takes for the account (a chat's Preferences button); reusable
   * for a week, never turns security off. `issuedAt` as for `channel-snooze`.
   */
  z.strictObject({ purpose: z.literal('channel-preferences'), ...base, channel: channelNameSchema, issuedAt: timestampMsSchema.optional() }),
  /**
   * Signs `email` in to the desk page, once (its page's POST consumes it), within 15 minutes. It
   * names no account: the session sees the accounts `email` receives. `issuedAt` is checked
   * against the recipient's desk sessions epoch (`recipients revoke-sessions` voids it). `next`
   * is the desk page the sign-in was asked from, where it returns (the overview without one).
   */
  z.strictObject({
    purpose: z.literal('desk-sign-in'),
    expiresAt: base.expiresAt,
    tokenId: base.tokenId,
    email: z.email(),
    issuedAt: timestampMsSchema,
    next: deskReturnPathSchema.optional(),
  }),
]);
export type LinkClaims = z.infer<typeof linkClaimsSchema>;
export type ClaimsFor<P extends LinkPurpose> = Extract<LinkClaims, { purpose: P }>;

/** The purpose-specific part of a link, before expiry and id are added. */
export type LinkRequest = { [P in LinkPurpose]: Omit<ClaimsFor<P>, 'expiresAt' | 'tokenId' | 'issuedAt'> }[LinkPurpose];

/**
 * Claims for a new link (`issuedAt` = `now` for the purposes a link epoch voids, and for a link
 * bound to a channel); throws `ZodError` when the request is malformed.
 */
export function issueClaims(request: LinkRequest, tokenId: string, now: number, ttlMs: number = DEFAULT_LINK_TTL_MS[request.purpose]): LinkClaims {
  const epoch = (EPOCH_PURPOSES as readonly LinkPurpose[]).includes(request.purpose) || ('channel' in request && request.channel !== undefined);
  const issued = epoch ? { issuedAt: now } : {};
  return linkClaimsSchema.parse({ ...request, ...issued, tokenId, expiresAt: now + ttlMs });
}

export type ClaimsCheck<P extends LinkPurpose> =
  | { kind: 'valid'; claims: ClaimsFor<P> }
  /** Authentic but past its expiry: `claims` say whose it was (a preferences page offers to mail a new link). */
  | { kind: 'expired'; expiredAt: number; claims: ClaimsFor<P> }
  | { kind: 'wrong-purpose'; purpose: LinkPurpose };

/**
 * Whether verified claims may be used for `expected` at `now`. A link for another purpose is
 * refused before its expiry is looked at; a link is expired from `expiresAt` on.
 */
export function checkClaims<P extends LinkPurpose>(claims: LinkClaims, expected: P, now: number): ClaimsCheck<P> {
  if (claims.purpose !== expected) return { kind: 'wrong-purpose', purpose: claims.purpose };
  if (now >= claims.expiresAt) return { kind: 'expired', expiredAt: claims.expiresAt, claims: claims as ClaimsFor<P> };
  return { kind: 'valid', claims: claims as ClaimsFor<P> };
}

/**
 * Whether a link's claims were voided by the recipient's link epoch (`linksRevokedAt`: links
 * issued at or before it no longer work). Links without `issuedAt` count as issued at 0.
 */
export function revokedByEpoch(claims: { issuedAt?: number | undefined }, linksRevokedAt: number | null): boolean {
  return linksRevokedAt !== null && (claims.issuedAt ?? 0) <= linksRevokedAt;
}
