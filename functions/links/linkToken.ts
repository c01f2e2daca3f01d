import { LINK_PURPOSES, type LinkPurpose } from '../domain/linkClaims';
import { deriveLinkKeyPair, MIN_LINK_KEY_SECRET_LENGTH } from './linkKeyPair';
import type { TokenCheck } from './linkTokenFormat';
import { LinkTokenSigner } from './linkTokenSigner';
import { LinkTokenVerifier } from './linkTokenVerifier';

/** What a link token is for. Each purpose has its own key pair, so tokens never cross over. */
export type { LinkPurpose, TokenCheck };

/**
 * The local runtime's tokens, where every function runs in one process: every purpose's Ed25519
 * key pair derived from one local secret (`SENTINEL_LINK_SECRET`, `.sentinel/link-secret`). Signs
 * with the current secret's keys; verifies under them and under the keys of each of `previous`
 * (the secrets it replaced), so links sent before a rotation keep working until it is dropped.
 * A deployed function never gets one: it gets a `LinkTokenSigner` of the purposes it mints, or a
 * `LinkTokenVerifier` holding public keys only.
 */
export class LinkTokenCodec {
  readonly #signer: LinkTokenSigner;
  readonly #verifier: LinkTokenVerifier;

  constructor(secret: string, previous: readonly string[] = []) {
    if (secret.length < MIN_LINK_KEY_SECRET_LENGTH) throw new Error('link secret must be at least 32 characters');
    if (previous.some((s) => s.length < MIN_LINK_KEY_SECRET_LENGTH)) throw new Error('previous link secrets must be at least 32 characters');
    const pairs = [secret, ...previous.filter((s) => s !== secret)].map((s) => LINK_PURPOSES.map((p) => deriveLinkKeyPair(p, s)));
    this.#signer = new LinkTokenSigner((pairs[0] ?? []).map((pair) => pair.signing));
    this.#verifier = new LinkTokenVerifier(pairs.flat().map((pair) => pair.public));
  }

  /** Signs `claims` for `purpose` with the current secret's key. */
  sign(purpose: LinkPurpose, claims: object): string {
    if (!(LINK_PURPOSES as readonly string[]).includes(purpose)) throw new Error(`unknown link purpose ${String(purpose)}`);
    return this.#signer.sign(purpose, claims);
  }

  /** Verifies under `purpose`'s key of the current or a previous secret (see `LinkTokenVerifier.verify`). */
  verify(purpose: LinkPurpose, token: string): TokenCheck {
    return this.#verifier.verify(purpose, token);
  }

  /** The public keys, for a page given nothing else. */
  verifier(): LinkTokenVerifier {
    return this.#verifier;
  }
}
