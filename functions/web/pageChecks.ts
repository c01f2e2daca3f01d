import { checkSameOrigin, originHeadersOf } from './sameOrigin';
import type { WebRequest } from './webRequest';

/** Why a page refuses a request before looking at its link. */
export type RefusedRequest = { kind: 'forbidden'; reason: string } | { kind: 'bad-request'; reason: string };

/** Why a link cannot be used: past its expiry, or not authentic for this action. */
export type LinkProblem = { kind: 'link-expired'; expiredAt: number } | { kind: 'link-invalid'; reason: string };

/** Why a form POST is refused before its link is looked at (cross-origin, not a form, empty), or null when it may proceed. */
export function formProblem(request: WebRequest, publicBaseUrl: string): RefusedRequest | null {
  const origin = checkSameOrigin(originHeadersOf(request), publicBaseUrl);
  if (origin.kind === 'cross-origin') return { kind: 'forbidden', reason: origin.reason };
  if (request.form.kind === 'unsupported') return { kind: 'bad-request', reason: request.form.reason };
  if (request.form.kind === 'none') return { kind: 'bad-request', reason: 'the form is empty' };
  return null;
}

/** The page of a link that is expired or invalid. */
export function linkProblem(link: { kind: 'expired'; expiredAt: number } | { kind: 'invalid'; reason: string }): LinkProblem {
  return link.kind === 'expired' ? { kind: 'link-expired', expiredAt: link.expiredAt } : { kind: 'link-invalid', reason: link.reason };
}
