import { randomUUID } from 'node:crypto';
import { ChainError, ChainHttpError, ChainNetworkError, ChainRejectedError, SignerError } from '../../chain/errors';
import type { ChainClient, Signer, SignedTransaction } from '../../chain/ports';
import type { Delegate } from '../../chain/schemas';
import { signTransaction } from '../../chain/signTransaction';
import { buildRemoveDelegateManager } from '../../chain/transactionBuilders';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { Counters, Log } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { AuditRepository } from '../../store/auditRepository';
import type { LeaseRepository } from '../../store/leaseRepository';
import type { TokenRepository } from '../../store/tokenRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import { authorizeRevocation } from './revocationAuthorization';
import { DEFAULT_REVOCATION_LEASE, withRevocationLease, type RevocationLeaseTiming } from './revocationLease';
import type { RevocationOutcome, RevocationRequest } from '../../domain/revocationOutcome';
import { describeError } from '../../shared/describeError';

/** The ports of {@link revokeDelegate}. Only this service (in `sign-revocation`) ever signs with an owner key. */
export interface RevokeDelegateDeps {
  readonly accounts: Pick<AccountsRepository, 'get'>;
  readonly leases: Pick<LeaseRepository, 'acquire' | 'release'>;
  readonly audit: Pick<AuditRepository, 'append'>;
  /** Consumed link tokens: the request must match one the page has just consumed. */
  readonly tokens: Pick<TokenRepository, 'get' | 'markSigned'>;
  readonly notify: MessageQueue<NotifyEvent>;
  readonly chain: Pick<ChainClient, 'getAccountNonce' | 'getDelegateTraders' | 'submitTransaction'>;
  /** Builds the signer a stored reference names (`kms:` or `env:`); throws `SignerError`. */
  readonly signerFor: (ref: string) => Promise<Signer>;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly log: Log;
  readonly counters?: Counters;
  readonly lease?: RevocationLeaseTiming;
  /** Lease owner id of one call; default a random UUID. */
  readonly newLeaseOwner?: () => string;
}

/** Connection failures that happen before a request reaches the node: nothing was submitted. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Revokes `request.delegate` from `request.account` with the account's owner key:
 * first checks that the request is what a revocation link the page has just consumed asked for,
 * and marks that token used for this signing (otherwise `not-authorized`, audited, nothing read
 * from the chain or KMS); re-checks that the account is tracked and has a signer whose address is the account's; under
 * the account's revocation lease, reads the delegates (gone already: `already-revoked`) and the
 * nonce, signs `RemoveDelegateManager` with nonce + 1 and submits it (a stale-nonce rejection is
 * retried once with a fresh nonce), then reads the delegates again to confirm. Every attempt is
 * audited; a finished one (revoked, already revoked, rejected, unconfirmed) queues a
 * `revocation-result` email. Expected failures are outcomes, never exceptions; a store failure
 * before anything was sent throws.
 */
export async function revokeDelegate(deps: RevokeDelegateDeps, request: RevocationRequest): Promise<RevocationOutcome> {
  const startedAt = deps.now();
  const authorization = await authorizeRevocation(deps, request);
  if (authorization.kind === 'refused') {
    deps.log.warn('revocation request refused', { account: request.account, delegate: request.delegate, reason: authorization.reason });
    return finish(deps, request, startedAt, { kind: 'not-authorized', sent: false }, null, authorization.reason);
  }
  const account = await deps.accounts.get(request.account);
  if (!account) return finish(deps, request, startedAt, { kind: 'not-tracked', sent: false }, null);
  if (account.signer === null) {
    return finish(deps, request, startedAt, { kind: 'not-configured', sent: false, reason: 'the account has no signer configured' }, null);
  }

  let signer: Signer;
  try {
    signer = await deps.signerFor(account.signer);
  } catch (error) {
    const outcome: RevocationOutcome =
      error instanceof SignerError && error.code === 'kms-unavailable'
        ? { kind: 'signer-unavailable', sent: false, message: error.message }
        : { kind: 'not-configured', sent: false, reason: `the signer cannot be used: ${describe(error)}` };
    return finish(deps, request, startedAt, outcome, null);
  }
  if (signer.address !== account.address) {
    return finish(deps, request, startedAt, { kind: 'not-configured', sent: false, reason: `the signer's key belongs to ${signer.address}, not to this account` }, null);
  }

  const timing = deps.lease ?? DEFAULT_REVOCATION_LEASE;
  const owner = (deps.newLeaseOwner ?? randomUUID)();
  const leased = await withRevocationLease(deps, account.address, owner, timing, () => revokeUnderLease(deps, signer, request));
  if (leased.kind === 'busy') return finish(deps, request, startedAt, { kind: 'busy', sent: false }, null);
  return finish(deps, request, startedAt, leased.value.outcome, leased.value.name);
}

interface LeasedResult {
  outcome: RevocationOutcome;
  /** The delegate's name as the chain listed it, for the email. */
  name: string | null;
}

async function revokeUnderLease(deps: RevokeDelegateDeps, signer: Signer, request: RevocationRequest): Promise<LeasedResult> {
  let listed: Delegate | undefined;
  let nonce: number;
  try {
    listed = (await deps.chain.getDelegateTraders(request.account)).find((d) => d.address === request.delegate);
    if (!listed) return { outcome: { kind: 'already-revoked', sent: false }, name: null };
    nonce = (await deps.chain.getAccountNonce(request.account)).nonce + 1;
  } catch (error) {
    return { outcome: unreachable(error), name: null };
  }
  const name = listed.name;

  for (let attempt = 1; ; attempt++) {
    let tx: SignedTransaction;
    try {
      tx = await signTransaction(signer, buildRemoveDelegateManager({ sender: request.account, manager: request.delegate, nonce }));
    } catch (error) {
      return { outcome: { kind: 'signer-unavailable', sent: false, message: describe(error) }, name };
    }
    const sent = { nonce, transactionSignature: tx.signature };
    try {
      await deps.chain.submitTransaction(tx);
    } catch (error) {
      if (error instanceof ChainRejectedError) {
        if (attempt === 1 && /nonce/i.test(error.reason)) {
          deps.log.info('stale nonce; retrying once with a fresh one', { account: request.account, nonce });
          deps.counters?.count('RevocationNonceRetries');
          try {
            nonce = (await deps.chain.getAccountNonce(request.account)).nonce + 1;
          } catch {
            return { outcome: { kind: 'rejected', sent: true, ...sent, message: error.reason }, name };
          }
          continue;
        }
        return { outcome: { kind: 'rejected', sent: true, ...sent, message: error.reason }, name };
      }
      if (neverSubmitted(error)) return { outcome: unreachable(error), name };
      if (!(error instanceof ChainError)) throw error;
      // The node may have executed it before the answer was lost: let the delegate list decide.
      return { outcome: await confirm(deps, request, sent, `the chain's answer was lost (${error.shortMessage})`), name };
    }
    return { outcome: await confirm(deps, request, sent, 'the transaction was accepted but the delegate is still listed'), name };
  }
}

async function confirm(
  deps: RevokeDelegateDeps,
  request: RevocationRequest,
  sent: { nonce: number; transactionSignature: `0x${string}` },
  stillListed: string,
): Promise<RevocationOutcome> {
  try {
    const delegates = await deps.chain.getDelegateTraders(request.account);
    if (!delegates.some((d) => d.address === request.delegate)) return { kind: 'revoked', sent: true, ...sent };
    return { kind: 'unconfirmed', sent: true, ...sent, message: stillListed };
  } catch (error) {
    return { kind: 'unconfirmed', sent: true, ...sent, message: `the delegate list could not be read afterwards (${describe(error)})` };
  }
}

function neverSubmitted(error: unknown): boolean {
  if (error instanceof ChainNetworkError) return error.code !== undefined && NOT_CONNECTED.has(error.code);
  return error instanceof ChainHttpError && error.status === 429;
}

function unreachable(error: unknown): RevocationOutcome {
  if (!(error instanceof ChainError)) throw error;
  return { kind: 'chain-unreachable', sent: false, message: error.shortMessage };
}

function describe(error: unknown): string {
  return describeError(error, { audience: 'public' });
}

/** Audits the attempt, queues the result email when the attempt finished, and returns the outcome. */
async function finish(
  deps: RevokeDelegateDeps,
  request: RevocationRequest,
  at: number,
  outcome: RevocationOutcome,
  delegateName: string | null,
  /** Why a request was refused, for the audit trail. */
  refusal?: string,
): Promise<RevocationOutcome> {
  deps.counters?.count(`Revocation_${outcome.kind}`);
  const message = 'message' in outcome ? outcome.message : 'reason' in outcome ? outcome.reason : refusal;
  try {
    await deps.audit.append({
      id: request.tokenId,
      address: request.account,
      at,
      actor: `link:${request.tokenId}`,
      action: 'revoke-delegate',
      outcome: outcome.kind,
      delegate: request.delegate,
      ...('nonce' in outcome ? { nonce: outcome.nonce, txSignature: outcome.transactionSignature } : {}),
      ...(message === undefined ? {} : { message }),
    });
  } catch (error) {
    deps.log.error('revocation audit record not written', { account: request.account, outcome: outcome.kind, error: describe(error) });
    deps.counters?.count('RevocationAuditFailures');
  }
  const email = resultEmail(request, outcome, delegateName, deps.now());
  if (email) {
    try {
      await sendAll(deps.notify, [{ id: email.eventId, body: email }]);
    } catch (error) {
      deps.log.error('revocation result email not queued', { account: request.account, outcome: outcome.kind, error: describe(error) });
      deps.counters?.count('RevocationNotifyFailures');
    }
  }
  deps.log.info('revocation finished', { account: request.account, delegate: request.delegate, outcome: outcome.kind, sent: outcome.sent });
  return outcome;
}

/** The `revocation-result` notify event of a finished attempt; none when nothing happened worth an email. */
function resultEmail(request: RevocationRequest, outcome: RevocationOutcome, name: string | null, now: number): NotifyEvent | null {
  const base = {
    kind: 'revocation-result' as const,
    eventId: `revocation-result#${request.tokenId}`,
    account: request.account,
    at: now,
    delegate: { address: request.delegate, name },
  };
  switch (outcome.kind) {
    case 'revoked':
      return { ...base, outcome: 'revoked', message: null, nonce: outcome.nonce, transactionSignature: outcome.transactionSignature };
    case 'already-revoked':
      return { ...base, outcome: 'already-revoked', message: null, nonce: null, transactionSignature: null };
    case 'rejected':
      return { ...base, outcome: 'rejected', message: outcome.message, nonce: outcome.nonce, transactionSignature: outcome.transactionSignature };
    case 'unconfirmed':
      return { ...base, outcome: 'unconfirmed', message: outcome.message, nonce: outcome.nonce, transactionSignature: outcome.transactionSignature };
    default:
      return null;
  }
}
