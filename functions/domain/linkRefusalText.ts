import type { LinkRefusal } from './linkRefusal';

/** Why the signer refused a link, in words that finish "Portfolio Sentinel refused to sign it because …". */
export function linkRefusalText(refusal: LinkRefusal): string {
  switch (refusal) {
    case 'channel-removed':
      return 'the chat channel the link was posted to was removed meanwhile';
    case 'links-revoked':
      return 'the chat channel the link was posted to withdrew its links meanwhile';
    case 'link-expired':
      return 'the link expired before it could be signed';
    case 'link-stale':
      return 'the signing started more than a minute after the link was used';
    case 'already-used':
      return 'the link had already been used for another attempt';
  }
}
