import { randomBytes } from 'node:crypto';
import type { LinkPurpose } from '../domain/linkClaims';
import { LinkMinter } from './linkMinter';
import { LinkReader, type LinkCheck } from './linkReader';
import type { TokenCheck } from './linkTokenFormat';

export { LINK_PATHS } from './linkPaths';
export type { LinkCheck };

/** Signs and verifies tokens of every purpose: the local runtime's `LinkTokenCodec`. */
export interface TokenCodec {
  sign(purpose: LinkPurpose, claims: object): string;
  verify(purpose: LinkPurpose, token: string): TokenCheck;
}

/**
 * Makes and reads links of every purpose: the local runtime and the CLI, where one process plays
 * every function. A deployed function gets a `LinkMinter` of the purposes it mints or a
 * `LinkReader` (public keys only), never this.
 */
export class ActionLinks extends LinkMinter {
  readonly #reader: LinkReader;

  constructor(codec: TokenCodec, baseUrl: string, newTokenId: () => string = () => randomBytes(18).toString('base64url'), revokeAllServed = true) {
    super(codec, baseUrl, newTokenId, revokeAllServed);
    this.#reader = new LinkReader(codec, baseUrl);
  }

  /** Verifies a token for `purpose` and checks its claims; never throws on bad input. */
  read<P extends LinkPurpose>(purpose: P, token: string | undefined, now: number): LinkCheck<P> {
    return this.#reader.read(purpose, token, now);
  }
}
