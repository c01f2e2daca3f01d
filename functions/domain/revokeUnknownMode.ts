import * as z from 'zod';

/**
 * What an account does with a delegate nobody announced (`accounts add/update --revoke-unknown`):
 * - `off`: nothing beyond the new-delegate notice (the default);
 * - `api-keys`: an unknown API key is revoked on sight; an unknown web session is kept but always
 *   raised as a security notice (its `isWebClient` flag is chosen by whoever signed it);
 * - `all`: unknown web sessions are revoked too.
 */
export const REVOKE_UNKNOWN_MODES = ['off', 'api-keys', 'all'] as const;
export type RevokeUnknownMode = (typeof REVOKE_UNKNOWN_MODES)[number];

/** The mode as typed (`--revoke-unknown`, an import cell): any case, surrounding blanks ignored. */
export const revokeUnknownModeSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.enum(REVOKE_UNKNOWN_MODES, { error: `must be one of ${REVOKE_UNKNOWN_MODES.join(', ')}` }),
);

/** Whether the mode acts on unknown delegates at all (anything but `off`). */
export function isRevokeUnknownArmed(mode: RevokeUnknownMode): mode is Exclude<RevokeUnknownMode, 'off'> {
  return mode !== 'off';
}
