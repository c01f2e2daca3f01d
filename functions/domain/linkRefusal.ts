import * as z from 'zod';

/**
 * Why the signer refused a revocation link that itself verified (signature, account, delegate and
 * token id match), as a category the link's page may show (no secrets, no internal ids):
 * - `channel-removed` / `links-revoked`: the chat channel it was posted to was removed (or
 *   replaced), or withdrew its links, after the page checked it;
 * - `link-expired`: the link expired before the signing;
 * - `link-stale`: the signing came more than a minute after the link was used (a slow or retried invoke);
 * - `already-used`: the link had already been used for a signing, or refused.
 */
export const linkRefusalSchema = z.enum(['channel-removed', 'links-revoked', 'link-expired', 'link-stale', 'already-used']);
export type LinkRefusal = z.infer<typeof linkRefusalSchema>;
