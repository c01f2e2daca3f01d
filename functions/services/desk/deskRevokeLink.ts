import { addressSchema } from '../../domain/address';
import type { LinkMinter } from '../../links/linkMinter';
import type { Log } from '../../shared/observability';
import { accountFor, type DeskScopeDeps, type DeskViewer } from './deskViewer';

/** What minting a revoke link from the desk needs: the viewer's scope and the minter of the emails' revoke links. */
export interface DeskRevokeLinkDeps {
  readonly accounts: DeskScopeDeps['accounts'];
  readonly revokeLinks: Pick<LinkMinter<'revoke' | 'revoke-all'>, 'build' | 'revokeAllServed'>;
  readonly log: Log;
}

/** What the desk asks a link for: one delegate of the account (`revoke`), or all of them (`revoke-all`). */
export type RevokeAsk = { readonly kind: 'revoke'; readonly delegate: string } | { readonly kind: 'revoke-all' };

/** The link to the confirmation page, or why there is none (`not-found`: not an account the viewer receives). */
export type DeskRevokeLink = { kind: 'link'; url: string } | { kind: 'not-found' } | { kind: 'bad-request'; reason: string };

/**
 * Mints, for `viewer` and an account it receives, the same single-use link an alert email
 * carries (revoke one delegate, or revoke all): it opens today's confirmation page, which changes
 * nothing until its own button is pressed. The link is a capability: it is returned, never logged.
 */
export async function deskRevokeLink(deps: DeskRevokeLinkDeps, viewer: DeskViewer, address: string, ask: RevokeAsk, now: number): Promise<DeskRevokeLink> {
  const account = await accountFor(deps, viewer, address);
  if (!account) return { kind: 'not-found' };
  if (ask.kind === 'revoke-all') {
    if (!deps.revokeLinks.revokeAllServed) return { kind: 'not-found' };
    deps.log.info('desk revoke-all link minted', { account: account.address });
    return { kind: 'link', url: deps.revokeLinks.build({ purpose: 'revoke-all', account: account.address }, now) };
  }
  const delegate = addressSchema.safeParse(ask.delegate);
  if (!delegate.success) return { kind: 'bad-request', reason: 'the key to revoke is not an address' };
  deps.log.info('desk revoke link minted', { account: account.address, delegate: delegate.data });
  return { kind: 'link', url: deps.revokeLinks.build({ purpose: 'revoke', account: account.address, delegate: delegate.data }, now) };
}
