import type { LinkPurpose } from '../domain/linkClaims';
import type { LinkMinter, LinkRequestOf } from './linkMinter';
import type { LinkCheck, LinkReader } from './linkReader';

/**
 * A page's links: it reads links with public keys, and mints only the purposes `P` it mails
 * itself (the preferences page: a new preferences link, a security-off confirmation).
 */
export class PageLinks<P extends LinkPurpose> {
  constructor(
    private readonly reader: Pick<LinkReader, 'read' | 'urlFor'>,
    private readonly minter: Pick<LinkMinter<P>, 'build'>,
  ) {}

  /** See `LinkReader.read`. */
  read<Q extends LinkPurpose>(purpose: Q, token: string | undefined, now: number): LinkCheck<Q> {
    return this.reader.read(purpose, token, now);
  }

  /** See `LinkReader.urlFor`. */
  urlFor(purpose: LinkPurpose, token: string): string {
    return this.reader.urlFor(purpose, token);
  }

  /** See `LinkMinter.build`: purposes `P` only. */
  build(request: LinkRequestOf<P>, now: number, ttlMs?: number): string {
    return this.minter.build(request, now, ttlMs);
  }
}
