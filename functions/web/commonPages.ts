import type { RefusedRequest } from './pageChecks';
import { simplePage, type PageContent } from './pageLayout';

/** The views every link page answers alike: a link that does not verify, a refused or unreadable request, a wrong method. */
export type RequestProblemView = { kind: 'link-invalid'; reason: string } | RefusedRequest | { kind: 'method-not-allowed' };

/** How a page words its request problems. */
export interface ProblemWording {
  /** The first sentence of the `forbidden` page, e.g. "The form must be sent from this site." */
  readonly forbidden: string;
  /** Whether the `bad-request` page tells to open the link from the email again. */
  readonly reopen: boolean;
}

/** The wording of a page whose one form confirms what its link does (`/revoke`, `/revoke-all`). */
export const CONFIRMATION_WORDING: ProblemWording = { forbidden: 'The confirmation must be sent from the form on this site.', reopen: true };

const PROBLEM_KINDS: ReadonlySet<string> = new Set<RequestProblemView['kind']>(['link-invalid', 'forbidden', 'bad-request', 'method-not-allowed']);

/** Whether a page's view is one of the request problems every page answers alike. */
export function isRequestProblem<V extends { readonly kind: string }>(view: V): view is Extract<V, RequestProblemView> {
  return PROBLEM_KINDS.has(view.kind);
}

/** The page of a request problem, worded for its page. */
export function requestProblemPage(view: RequestProblemView, wording: ProblemWording): PageContent {
  switch (view.kind) {
    case 'link-invalid':
      return simplePage(
        'This link is not valid',
        'Invalid link',
        'danger',
        `The link could not be verified (${view.reason}). Make sure you opened the whole link from the email. Nothing was changed.`,
      );
    case 'forbidden':
      return simplePage(
        'Request refused',
        'Refused',
        'danger',
        `${wording.forbidden} Open the link from the email again and press the button there. Nothing was changed.`,
      );
    case 'bad-request':
      return simplePage(
        'Request not understood',
        'Bad request',
        'danger',
        `The request could not be read (${view.reason}).${wording.reopen ? ' Open the link from the email again.' : ''} Nothing was changed.`,
      );
    case 'method-not-allowed':
      return simplePage('Method not allowed', 'Error', 'danger', 'This page accepts only GET and POST.');
  }
}

/** Which channel withdrew a chat's link, and how. */
type WithdrawnLink = { readonly channel: string; readonly reason: 'channel-removed' | 'links-revoked' };

/** Why a chat's link no longer works, in one sentence. */
export function withdrawnLinkReason(view: WithdrawnLink): string {
  return view.reason === 'links-revoked'
    ? `The links of the channel ${view.channel} were withdrawn after this message was posted.`
    : `The channel ${view.channel} this link was posted to has been removed or replaced since.`;
}

/**
 * The page of a revoke or revoke-all link its channel withdrew (`channels revoke-links`), or
 * whose channel was removed or made again since: nothing was changed.
 */
export function withdrawnLinkPage(view: WithdrawnLink): PageContent {
  const why = withdrawnLinkReason(view);
  return simplePage(
    'This link was withdrawn',
    'Withdrawn',
    'neutral',
    `${why} Nothing was changed. Use the link of a newer message or email, or ask an operator for one (sentinel link revoke <account> <delegate>).`,
  );
}

/** The page of a link that no longer works (past its time, or a chat's link its channel lost); `text` says why and what to do. */
export function expiredLinkPage(text: string): PageContent {
  return simplePage('This link has expired', 'Expired', 'neutral', text);
}

/** A revoke or revoke-all link past its time; `whatNext` says where a new one comes from. */
export function expiredRevocationLinkPage(whatNext: string): PageContent {
  return expiredLinkPage(`Revocation links work for a limited time. Nothing was changed. ${whatNext}`);
}
