import type { LinkReader } from '../links/linkReader';
import { RevocationInvokeError, signerNeverRan } from './errors';
import type { RevocationSigner } from './revocationSigner';
import type { Counters, Log } from '../shared/observability';
import type { AccountsRepository } from '../store/accountsRepository';
import type { DelegateViewRepository } from '../store/delegateViewRepository';
import type { PreferencesRepository } from '../store/preferencesRepository';
import type { SuppressionRepository } from '../store/suppressionRepository';
import type { ConsumedToken, TokenRepository } from '../store/tokenRepository';
import type { CsrfTokens } from './csrfToken';
import { checkSameOrigin, originHeadersOf } from './sameOrigin';
import type { WebRequest } from './webRequest';
import { linkReusableAfter } from '../domain/revocationOutcome';
import type { LinkRefusal } from '../domain/linkRefusal';
import { describeError } from '../shared/describeError';
import type { ChannelsRepository } from '../store/channelsRepository';
import { withdrawnChannelLink, type WithdrawnLinkView } from './withdrawnChannelLink';

const NO_SIGNER = 'the account has no signer configured';
const SIGNER_UNUSABLE = "the account's signer could not be used (the audit trail says why)";

/** The ports of the revocation page. It never touches a key: signing happens behind `signer`. */
export interface RevocationPageDeps {
  /** Reads revoke links with public keys only: the page cannot make one. */
  readonly links: Pick<LinkReader, 'read'>;
  readonly csrf: CsrfTokens;
  /** `PUBLIC_BASE_URL`: its origin is the only one a confirming POST may come from. */
  readonly publicBaseUrl: string;
  readonly accounts: Pick<AccountsRepository, 'get'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  readonly tokens: Pick<TokenRepository, 'consume' | 'release' | 'get'>;
  /** The channel a chat's link was posted to: its link epoch withdraws the link. */
  readonly channels: Pick<ChannelsRepository, 'get'>;
  /** Which recipients still get mail; without it the page assumes every recipient does. */
  readonly suppressions?: Pick<SuppressionRepository, 'filter'>;
  /** Which of those still get security notices (the result email is one); without it, all of them. */
  readonly preferences?: Pick<PreferencesRepository, 'filter'>;
  readonly signer: RevocationSigner;
  readonly now: () => number;
  readonly log: Log;
  /** `RevocationSignerThrottled` and `RevocationSignerUnavailable` (the latter raises an alarm). */
  readonly counters?: Counters;
}

/** What the page knows about the account and delegate a link names. */
export interface RevocationSubject {
  readonly account: { address: string; label: string | null; timezone: string; hasSigner: boolean };
  /** Name, expiry and kind as last seen by collection; `null` when never seen. */
  readonly delegate: { address: string; name: string | null; expiryMs: number | null; isWebClient: boolean; known: boolean };
  /** When the link stops working. */
  readonly linkExpiresAt: number;
}

/**
 * Why nothing was sent: the chain, the owner key, the account's lease, the audit trail, the
 * signing function throttled (`throttled`: "busy, try again"), or the signing function missing or
 * not invocable (`offline`: an operator's problem, alarmed).
 */
export type UnavailableCause = 'chain' | 'signer' | 'busy' | 'audit' | 'throttled' | 'offline';

/** Every page the revocation endpoint can show (rendered by `functions/web/revocationViews.ts`). */
export type RevocationPageView =
  | { kind: 'confirm'; subject: RevocationSubject; token: string; csrf: string; now: number }
  | {
      kind: 'revoked';
      subject: RevocationSubject;
      nonce: number;
      transactionSignature: string;
      /** `false` when every recipient is suppressed or has turned security notices off, so no confirmation email goes out; absent means it does. */
      confirmationEmail?: boolean;
    }
  | { kind: 'already-revoked'; subject: RevocationSubject }
  | { kind: 'rejected'; subject: RevocationSubject; message: string }
  | { kind: 'unconfirmed'; subject: RevocationSubject; message: string; transactionSignature: string }
  | { kind: 'unavailable'; cause: UnavailableCause; subject: RevocationSubject }
  | { kind: 'not-configured'; subject: RevocationSubject; reason: string }
  | { kind: 'not-tracked' }
  /** The signer refused the request; `refusal`: why, when the link itself verified (its page may say so). */
  | { kind: 'not-authorized'; refusal?: LinkRefusal }
  | { kind: 'link-expired'; expiredAt: number }
  /** A chat's link whose channel withdrew it (`channels revoke-links`, `channels remove`). */
  | WithdrawnLinkView
  /** The link was used: when, for what, and how it ended (`outcome` null while it runs, or when its end was not kept). */
  | { kind: 'link-used'; consumedAt: number; subject?: RevocationSubject; outcome?: ConsumedToken['outcome'] }
  | { kind: 'link-invalid'; reason: string }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'bad-request'; reason: string }
  /** The signing function could not be invoked or did not answer: the link stays used, the result is unknown. */
  | { kind: 'failed'; subject: RevocationSubject | null }
  | { kind: 'method-not-allowed' };

/**
 * The `/revoke` endpoint. `GET ?token=` shows what the link would do and a confirmation form;
 * it changes and consumes nothing (mail scanners open links). A chat's link its channel withdrew
 * answers `link-withdrawn` on GET and POST (`link-used` when it was used and its end is known). `POST` (the form) checks the
 * origin, the link and the form's anti-CSRF value, consumes the link once, asks the signing
 * side to revoke, and gives the link back when nothing was sent, so it can be used again.
 */
export async function revocationPage(deps: RevocationPageDeps, request: WebRequest): Promise<RevocationPageView> {
  if (request.method === 'GET' || request.method === 'HEAD') return showConfirmation(deps, request.query.get('token') ?? undefined);
  if (request.method === 'POST') return confirm(deps, request);
  return { kind: 'method-not-allowed' };
}

async function showConfirmation(deps: RevocationPageDeps, token: string | undefined): Promise<RevocationPageView> {
  const now = deps.now();
  const link = deps.links.read('revoke', token, now);
  if (link.kind === 'expired') return { kind: 'link-expired', expiredAt: link.expiredAt };
  if (link.kind === 'invalid') return { kind: 'link-invalid', reason: link.reason };
  const withdrawn = await withdrawnChannelLink(deps.channels, link.claims);
  if (withdrawn) return withdrawnOrUsed(deps, link.claims.tokenId, withdrawn);
  const found = await subjectOf(deps, link.claims);
  if (!found) return untrackedOrUsed(deps, link.claims.tokenId);
  const { emails: _emails, ...subject } = found;
  // A used link says so at once, with what happened, from its token alone.
  const used = await deps.tokens.get(link.claims.tokenId, 'revoke');
  if (used) return { kind: 'link-used', consumedAt: used.consumedAt, subject, outcome: used.outcome };
  if (!subject.account.hasSigner) return { kind: 'not-configured', subject, reason: NO_SIGNER };
  return { kind: 'confirm', subject, token: token ?? '', csrf: deps.csrf.issue('revoke', link.claims.tokenId), now };
}

async function confirm(deps: RevocationPageDeps, request: WebRequest): Promise<RevocationPageView> {
  const origin = checkSameOrigin(originHeadersOf(request), deps.publicBaseUrl);
  if (origin.kind === 'cross-origin') return { kind: 'forbidden', reason: origin.reason };
  if (request.form.kind !== 'form') {
    return { kind: 'bad-request', reason: request.form.kind === 'unsupported' ? request.form.reason : 'the form is empty' };
  }
  const fields = request.form.fields;
  const now = deps.now();
  const token = fields.get('token') ?? '';
  const link = deps.links.read('revoke', token, now);
  if (link.kind === 'expired') return { kind: 'link-expired', expiredAt: link.expiredAt };
  if (link.kind === 'invalid') return { kind: 'link-invalid', reason: link.reason };
  const claims = link.claims;
  if (!deps.csrf.verify('revoke', claims.tokenId, fields.get('csrf'))) {
    return { kind: 'forbidden', reason: 'the confirmation form is missing or altered' };
  }
  const withdrawn = await withdrawnChannelLink(deps.channels, claims);
  if (withdrawn) return withdrawnOrUsed(deps, claims.tokenId, withdrawn);
  const found = await subjectOf(deps, claims);
  if (!found) return untrackedOrUsed(deps, claims.tokenId);
  const { emails, ...subject } = found;
  if (!subject.account.hasSigner) return { kind: 'not-configured', subject, reason: NO_SIGNER };

  const consumed = await deps.tokens.consume(claims.tokenId, {
    purpose: 'revoke',
    account: claims.account,
    delegate: claims.delegate,
    expiresAt: claims.expiresAt,
  });
  if (consumed.kind === 'already-used') {
    const used = await deps.tokens.get(claims.tokenId, 'revoke');
    return { kind: 'link-used', consumedAt: consumed.consumedAt, subject, outcome: used?.outcome ?? null };
  }

  let outcome;
  try {
    // The signed link goes along: the signer verifies it itself, trusting no record this page wrote.
    outcome = await deps.signer.revoke({ account: claims.account, delegate: claims.delegate, tokenId: claims.tokenId, token });
  } catch (error) {
    return invokeFailed(deps, claims, subject, error);
  }
  if (linkReusableAfter(outcome)) await deps.tokens.release(claims.tokenId, 'revoke');
  deps.log.info('revocation requested', { account: claims.account, delegate: claims.delegate, outcome: outcome.kind });

  switch (outcome.kind) {
    case 'revoked': {
      const reachable = deps.suppressions ? await deps.suppressions.filter(emails) : emails;
      const told = deps.preferences && reachable.length > 0 ? await deps.preferences.filter(reachable, 'security') : reachable;
      const mailed = told.length > 0;
      return { kind: 'revoked', subject, nonce: outcome.nonce, transactionSignature: outcome.transactionSignature, confirmationEmail: mailed };
    }
    case 'already-revoked':
      return { kind: 'already-revoked', subject };
    case 'rejected':
      return { kind: 'rejected', subject, message: outcome.message };
    case 'unconfirmed':
      return { kind: 'unconfirmed', subject, message: outcome.message, transactionSignature: outcome.transactionSignature };
    case 'chain-unreachable':
      return { kind: 'unavailable', cause: 'chain', subject };
    case 'signer-unavailable':
      return { kind: 'unavailable', cause: 'signer', subject };
    case 'busy':
      return { kind: 'unavailable', cause: 'busy', subject };
    case 'audit-unavailable':
      return { kind: 'unavailable', cause: 'audit', subject };
    case 'not-configured':
      // The detailed reason (key ids, variable names) stays in the audit trail, off this public page.
      return { kind: 'not-configured', subject, reason: outcome.reason === NO_SIGNER ? NO_SIGNER : SIGNER_UNUSABLE };
    case 'not-tracked':
      return { kind: 'not-tracked' };
    case 'not-authorized':
      return outcome.refusal === undefined ? { kind: 'not-authorized' } : { kind: 'not-authorized', refusal: outcome.refusal };
  }
}

/**
 * The page of a link its channel withdrew, unless the link was used before and how that ended is
 * kept on its token (e.g. the signer refused it as the channel withdrew it meanwhile): then that,
 * without naming the account or the delegate, as the withdrawn page does not.
 */
async function withdrawnOrUsed(deps: RevocationPageDeps, tokenId: string, withdrawn: WithdrawnLinkView): Promise<RevocationPageView> {
  const used = await deps.tokens.get(tokenId, 'revoke');
  return used?.outcome ? { kind: 'link-used', consumedAt: used.consumedAt, outcome: used.outcome } : withdrawn;
}

/**
 * A link of an account no longer tracked: once used, it still says when and with what result (not
 * naming an account Portfolio Sentinel no longer knows); never used, it did nothing.
 */
async function untrackedOrUsed(deps: RevocationPageDeps, tokenId: string): Promise<RevocationPageView> {
  const used = await deps.tokens.get(tokenId, 'revoke');
  return used ? { kind: 'link-used', consumedAt: used.consumedAt, outcome: used.outcome } : { kind: 'not-tracked' };
}

/**
 * The signer could not be invoked. When Lambda refused before running it (throttled, missing,
 * denied) nothing was signed: the link is given back. Otherwise whether anything reached the
 * chain is unknown and the link stays used (giving it back could sign a second transaction while
 * the first may still land).
 */
async function invokeFailed(
  deps: RevocationPageDeps,
  claims: { tokenId: string; account: string },
  subject: RevocationSubject,
  error: unknown,
): Promise<RevocationPageView> {
  const failure = error instanceof RevocationInvokeError ? error.failure : 'unexpected';
  const logged = { account: claims.account, failure, error: describeError(error, { audience: 'log' }) };
  if (failure === 'unexpected' || !signerNeverRan(failure)) {
    deps.log.error('revocation could not be completed', logged);
    return { kind: 'failed', subject };
  }
  await deps.tokens.release(claims.tokenId, 'revoke');
  if (failure === 'throttled') {
    deps.log.warn('signing function throttled; the link was given back', logged);
    deps.counters?.count('RevocationSignerThrottled');
    return { kind: 'unavailable', cause: 'throttled', subject };
  }
  deps.log.error('signing function cannot be invoked; the link was given back', logged);
  deps.counters?.count('RevocationSignerUnavailable');
  return { kind: 'unavailable', cause: 'offline', subject };
}

async function subjectOf(
  deps: RevocationPageDeps,
  claims: { account: string; delegate: string; expiresAt: number },
): Promise<(RevocationSubject & { readonly emails: readonly string[] }) | null> {
  const account = await deps.accounts.get(claims.account);
  if (!account) return null;
  const seen = (await deps.delegates.listForAccount(account.address)).find((d) => d.delegate === claims.delegate);
  return {
    emails: account.emails,
    account: { address: account.address, label: account.label, timezone: account.timezone, hasSigner: account.signer !== null },
    delegate: {
      address: claims.delegate,
      name: seen?.name ?? null,
      expiryMs: seen?.expiryMs ?? null,
      isWebClient: seen?.isWebClient ?? false,
      known: seen !== undefined,
    },
    linkExpiresAt: claims.expiresAt,
  };
}
