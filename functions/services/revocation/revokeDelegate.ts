import { randomUUID } from 'node:crypto';
import { ChainError, ChainHttpError, ChainNetworkError, ChainRejectedError, SignerError } from '../../chain/errors';
import type { ChainClient, Signer, SignedTransaction } from '../../chain/ports';
import type { Delegate } from '../../chain/schemas';
import { signTransaction } from '../../chain/signTransaction';
import { transactionHash } from '../../chain/transactionHash';
import { buildRemoveDelegateManager } from '../../chain/transactionBuilders';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { Counters, Log } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { AuditRepository, TransactionIntent } from '../../store/auditRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import type { LeaseRepository } from '../../store/leaseRepository';
import type { TokenRepository } from '../../store/tokenRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import { authorizeRevocation, type RevocationAuthorizationDeps } from './revocationAuthorization';
import { DEFAULT_REVOCATION_LEASE, withRevocationLease, type RevocationLeaseTiming } from './revocationLease';
import { isDecisionRequest, type RevocationOutcome, type RevocationRequest } from '../../domain/revocationOutcome';
import { authorizeDecision, type DecisionCheckDeps, type DecisionSigningDeps } from './decisionAuthorization';
import { recordDecisionOutcome } from './recordDecisionOutcome';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
import { describeError } from '../../shared/describeError';
import type { LinkRefusal } from '../../domain/linkRefusal';

/** The ports of {@link revokeDelegate}. Only this service (in `sign-revocation`) ever signs with an owner key. */
export interface RevokeDelegateDeps {
  readonly accounts: Pick<AccountsRepository, 'get'>;
  readonly leases: Pick<LeaseRepository, 'acquire' | 'release'>;
  readonly audit: Pick<AuditRepository, 'append' | 'appendIntent' | 'appendOutcome'>;
  /** Consumed link tokens: the request must match one the page has just consumed. */
  readonly tokens: Pick<TokenRepository, 'get' | 'markSigned' | 'recordOutcome' | 'recordRefusal'>;
  /** Verifies a click's signed link (revoke, or the batch's revoke-all) with those purposes' public keys: it cannot make one. */
  readonly links: RevocationAuthorizationDeps['links'];
  /** The channel a chat's link names, whose link epoch voids it. */
  readonly channels: RevocationAuthorizationDeps['channels'];
  readonly notify: MessageQueue<NotifyEvent>;
  /**
   * The delegates collection last saw: a key found gone from the chain (revoked, or already gone)
   * is marked removed at once, so the Revoke-all page, the desk and the notices' "Revoke all N"
   * count stop listing it before the next poll.
   */
  readonly delegates: Pick<DelegateViewRepository, 'markRemoved'>;
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
  /** What re-checks automatic actions' decisions; without it, every `{account, delegate, decisionId}` request is refused. */
  readonly automatic?: DecisionCheckDeps;
}

/** How a request is named in the audit trail and the result email. */
interface RequestRef {
  /** The audit record's id: the link token id, or `<decision id>.<delegate>`. */
  readonly id: string;
  readonly actor: string;
  /** The link token id, or the decision id. */
  readonly tokenId: string;
}

function refOf(request: RevocationRequest): RequestRef {
  if (isDecisionRequest(request))
    return { id: `${request.decisionId}.${request.delegate}`, actor: `decision:${request.decisionId}`, tokenId: request.decisionId };
  return { id: request.tokenId, actor: `link:${request.tokenId}`, tokenId: request.tokenId };
}

/**
 * Whether a signing may go ahead, for a link or a decision; `reason`: an automatic action's, for
 * the audit; `webSession`: why a web session may not be revoked by it (`null`: it may, as a click
 * always may); `decision`: the decision and the cap slot its signing holds, whose outcome is
 * recorded for the decision's result. `answered`: a decision's delegate already settled or being
 * signed elsewhere, answered as it stands.
 */
type Authorization =
  | {
      kind: 'authorized';
      mailed: boolean;
      reason: string | null;
      webSession: string | null;
      decision: { decision: ProtectiveDecision; slot: string; deps: DecisionSigningDeps } | null;
    }
  | { kind: 'refused'; refusal: string; reason: string | null; kept?: { refusal: LinkRefusal; consumedAt: number } }
  | { kind: 'answered'; outcome: RevocationOutcome; note: string };

/** The decision path's ports: the signer's checks, and its account, clock, chain and notify queue. */
function decisionSigningDeps(deps: RevokeDelegateDeps, automatic: DecisionCheckDeps): DecisionSigningDeps {
  return {
    ...automatic,
    accounts: deps.accounts,
    now: deps.now,
    notify: deps.notify,
    chain: deps.chain,
    log: deps.log,
    ...(deps.counters === undefined ? {} : { counters: deps.counters }),
  };
}

async function authorize(deps: RevokeDelegateDeps, request: RevocationRequest): Promise<Authorization> {
  if (!isDecisionRequest(request)) {
    const link = await authorizeRevocation(deps, request);
    // A unit of a revoke-all batch is mailed once for the whole batch, by the batch's worker.
    return link.kind === 'authorized'
      ? { kind: 'authorized', mailed: link.batch === null, reason: null, webSession: null, decision: null }
      : { kind: 'refused', refusal: link.reason, reason: null, ...(link.kept === null ? {} : { kept: link.kept }) };
  }
  if (!deps.automatic) return { kind: 'refused', refusal: 'automatic actions are not set up for this signer', reason: null };
  const signing = decisionSigningDeps(deps, deps.automatic);
  const decided = await authorizeDecision(signing, request);
  // An automatic action's result goes out once for the decision (`announceDecisionSettled`), not per delegate.
  if (decided.kind === 'answered') return { kind: 'answered', outcome: decided.outcome, note: decided.note };
  return decided.kind === 'authorized'
    ? {
        kind: 'authorized',
        mailed: false,
        reason: decided.decision.reason,
        webSession: decided.webSession,
        decision: { decision: decided.decision, slot: decided.slot, deps: signing },
      }
    : { kind: 'refused', refusal: decided.refusal.text, reason: decided.decisionReason };
}

/** Connection failures that happen before a request reaches the node: nothing was submitted. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Revokes `request.delegate` from `request.account` with the account's owner key:
 * first checks that the request is what a revocation link the page has just consumed asked for
 * (the signed link verified here, then the consumed record: `authorizeRevocation`), and marks that
 * token used for this signing (otherwise `not-authorized`, audited, nothing read
 * from the chain or KMS; when the link itself verified, the refusal and why are kept on its token
 * as its first outcome, so the used link's page says so); re-checks that the account is tracked and has a signer whose address is the account's; under
 * the account's revocation lease, reads the delegates (gone already: `already-revoked`; a web
 * session an automatic decision may not revoke, see `webSessionRefusal`: `not-authorized`) and the
 * nonce, signs `RemoveDelegateManager` with nonce + 1, records the intent in the audit trail
 * (nothing is submitted unless that write succeeds: `audit-unavailable`), submits it (a
 * stale-nonce rejection is retried once with a fresh nonce: a second transaction, a second
 * intent), reads the delegates again to confirm, and records the transaction's outcome as a
 * second audit item. An attempt that signs nothing is audited as one record; a finished one (revoked, already revoked, rejected, unconfirmed) queues a
 * `revocation-result` email. Expected failures are outcomes, never exceptions; a store failure
 * before anything was sent throws.
 */
export async function revokeDelegate(deps: RevokeDelegateDeps, request: RevocationRequest): Promise<RevocationOutcome> {
  const startedAt = deps.now();
  const ref = refOf(request);
  const authorization = await authorize(deps, request);
  if (authorization.kind === 'answered') {
    // Nothing attempted: the delegate's result stands (a redelivery), or another invocation holds it.
    deps.log.info('revocation request answered as it stands', {
      account: request.account,
      delegate: request.delegate,
      outcome: authorization.outcome.kind,
      note: authorization.note,
    });
    return authorization.outcome;
  }
  const mailed = authorization.kind === 'authorized' && authorization.mailed;
  // A consumed link (not a decision): its final outcome is kept on the link's token.
  const authorized = authorization.kind === 'authorized' && !isDecisionRequest(request);
  const reason = authorization.reason === null ? {} : { reason: authorization.reason };
  const finishing = async (result: Finished): Promise<RevocationOutcome> => {
    const outcome = await finish(deps, request, ref, startedAt, { ...reason, ...result });
    // A decision's delegate: its outcome is recorded (waiting for a redelivery, or final) and the decision's result announced once settled.
    const decided = authorization.kind === 'authorized' ? authorization.decision : null;
    if (decided && isDecisionRequest(request))
      await recordDecisionOutcome(decided.deps, decided.decision, request, decided.slot, {
        outcome,
        name: result.name,
        webSessionRefusal: result.refusal ?? null,
      });
    return outcome;
  };
  const unsent = (outcome: RevocationOutcome, extra: Partial<Finished> = {}) =>
    finishing({ outcome, name: null, recorded: false, mailed, authorized, ...extra });
  if (authorization.kind === 'refused') {
    deps.log.warn('revocation request refused', { account: request.account, delegate: request.delegate, reason: authorization.refusal });
    const { kept } = authorization;
    return unsent(
      { kind: 'not-authorized', sent: false, ...(kept === undefined ? {} : { refusal: kept.refusal }) },
      { refusal: authorization.refusal, ...(kept === undefined ? {} : { refusedConsumedAt: kept.consumedAt }) },
    );
  }
  const account = await deps.accounts.get(request.account);
  if (!account) return unsent({ kind: 'not-tracked', sent: false });
  if (account.signer === null) return unsent({ kind: 'not-configured', sent: false, reason: 'the account has no signer configured' });

  let signer: Signer;
  try {
    signer = await deps.signerFor(account.signer);
  } catch (error) {
    if (error instanceof SignerError && error.code === 'kms-unavailable') {
      return unsent({ kind: 'signer-unavailable', sent: false, message: SIGNER_DOWN }, { detail: describe(error) });
    }
    return unsent({ kind: 'not-configured', sent: false, reason: `the signer cannot be used: ${describe(error)}` });
  }
  if (signer.address !== account.address) {
    return unsent({ kind: 'not-configured', sent: false, reason: `the signer's key belongs to ${signer.address}, not to this account` });
  }

  const timing = deps.lease ?? DEFAULT_REVOCATION_LEASE;
  const owner = (deps.newLeaseOwner ?? randomUUID)();
  const leased = await withRevocationLease(deps, account.address, owner, timing, () => revokeUnderLease(deps, signer, request, ref, authorization));
  if (leased.kind === 'busy') return unsent({ kind: 'busy', sent: false });
  return finishing({ ...leased.value, mailed, authorized });
}

interface LeasedResult {
  outcome: RevocationOutcome;
  /** The delegate's name as the chain listed it, for the email. */
  name: string | null;
  /** Internal details for the logs and the audit trail (URLs redacted), never for the owner. */
  detail?: string;
  /** Whether the outcome is already in the audit trail (as a transaction's outcome record). */
  recorded: boolean;
  /** Why the signing was refused under the lease (a web session the decision may not revoke), for the audit. */
  refusal?: string;
}

/** What is recorded of a transaction's end; `retry` is a stale nonce about to be retried. */
interface Submitted {
  outcome: RevocationOutcome;
  detail?: string;
  retry?: true;
}

async function revokeUnderLease(
  deps: RevokeDelegateDeps,
  signer: Signer,
  request: RevocationRequest,
  ref: RequestRef,
  { reason, webSession }: Pick<Extract<Authorization, { kind: 'authorized' }>, 'reason' | 'webSession'>,
): Promise<LeasedResult> {
  let listed: Delegate | undefined;
  let nonce: number;
  try {
    listed = (await deps.chain.getDelegateTraders(request.account)).find((d) => d.address === request.delegate);
    if (!listed) return { outcome: { kind: 'already-revoked', sent: false }, name: null, recorded: false };
    // The flag as the chain lists it now: whoever signed the DelegateManager chose it.
    if (listed.isWebClient && webSession !== null) {
      deps.log.warn('revocation request refused: web session', { account: request.account, delegate: request.delegate, reason: webSession });
      return { outcome: { kind: 'not-authorized', sent: false }, name: listed.name, recorded: false, refusal: webSession };
    }
    nonce = (await deps.chain.getAccountNonce(request.account)).nonce + 1;
  } catch (error) {
    return { ...unreachable(error), name: null, recorded: false };
  }
  const name = listed.name;

  /** The outcome of the transaction sent before this one (a stale-nonce rejection), already recorded. */
  let previous: RevocationOutcome | null = null;
  for (let attempt = 1; ; attempt++) {
    let tx: SignedTransaction;
    try {
      tx = await signTransaction(signer, buildRemoveDelegateManager({ sender: request.account, manager: request.delegate, nonce }));
    } catch (error) {
      if (previous) return { outcome: previous, name, detail: `re-signing failed: ${describe(error)}`, recorded: true };
      return { outcome: { kind: 'signer-unavailable', sent: false, message: SIGNER_DOWN }, name, detail: describe(error), recorded: false };
    }
    const intent: TransactionIntent = {
      address: request.account,
      delegate: request.delegate,
      tokenId: ref.tokenId,
      actor: ref.actor,
      action: 'revoke-delegate',
      ...(reason === null ? {} : { reason }),
      nonce,
      txHash: transactionHash(tx),
      txSignature: tx.signature,
      at: deps.now(),
    };
    const intended = await writeIntent(deps, intent);
    if (intended !== null) {
      if (previous) return { outcome: previous, name, detail: `the retry was not submitted: ${intended}`, recorded: true };
      return { outcome: { kind: 'audit-unavailable', sent: false }, name, detail: intended, recorded: false };
    }

    const submitted = await submit(deps, request, tx, nonce, attempt);
    await writeOutcome(deps, intent, submitted);
    if (!submitted.retry) return { outcome: submitted.outcome, name, ...(submitted.detail === undefined ? {} : { detail: submitted.detail }), recorded: true };
    previous = submitted.outcome;
    try {
      nonce = (await deps.chain.getAccountNonce(request.account)).nonce + 1;
    } catch (error) {
      return { outcome: previous, name, detail: `the fresh nonce could not be read: ${describe(error)}`, recorded: true };
    }
  }
}

/** Submits `tx` (its intent is already recorded) and says what became of it. */
async function submit(deps: RevokeDelegateDeps, request: RevocationRequest, tx: SignedTransaction, nonce: number, attempt: number): Promise<Submitted> {
  const sent = { nonce, transactionSignature: tx.signature };
  try {
    await deps.chain.submitTransaction(tx);
  } catch (error) {
    if (error instanceof ChainRejectedError) {
      const rejected: RevocationOutcome = { kind: 'rejected', sent: true, ...sent, message: error.reason };
      if (attempt === 1 && /nonce/i.test(error.reason)) {
        deps.log.info('stale nonce; retrying once with a fresh one', { account: request.account, nonce });
        deps.counters?.count('RevocationNonceRetries');
        return { outcome: rejected, detail: 'stale nonce: retrying once with a fresh one', retry: true };
      }
      return { outcome: rejected };
    }
    if (neverSubmitted(error)) return unreachable(error);
    if (!(error instanceof ChainError)) {
      return { outcome: { kind: 'unconfirmed', sent: true, ...sent, message: ANSWER_LOST }, detail: `submitting failed unexpectedly: ${describe(error)}` };
    }
    // The node may have executed it before the answer was lost: let the delegate list decide.
    return confirm(deps, request, sent, ANSWER_LOST, error.message);
  }
  return confirm(deps, request, sent, 'the transaction was accepted but the delegate is still listed');
}

/** Writes the intent; `null` when written, else why not (then nothing may be submitted). */
async function writeIntent(deps: RevokeDelegateDeps, intent: TransactionIntent): Promise<string | null> {
  try {
    const written = await deps.audit.appendIntent(intent);
    if (written.kind === 'appended') return null;
    return 'an intent record of this very transaction already exists';
  } catch (error) {
    deps.log.error('revocation intent not audited; nothing submitted', { account: intent.address, nonce: intent.nonce, error: describe(error) });
    deps.counters?.count('RevocationAuditFailures');
    return `the intent record could not be written: ${describe(error)}`;
  }
}

async function writeOutcome(deps: RevokeDelegateDeps, intent: TransactionIntent, submitted: Submitted): Promise<void> {
  const { outcome } = submitted;
  try {
    await deps.audit.appendOutcome(intent, {
      outcome: outcome.kind,
      at: deps.now(),
      ...('message' in outcome ? { message: outcome.message } : {}),
      ...(submitted.detail === undefined ? {} : { detail: submitted.detail }),
    });
  } catch (error) {
    // The transaction is out; its intent stands in the trail without an outcome.
    deps.log.error('revocation outcome not audited', { account: intent.address, txHash: intent.txHash, outcome: outcome.kind, error: describe(error) });
    deps.counters?.count('RevocationAuditFailures');
  }
}

const ANSWER_LOST = "the chain's answer was lost, so it is not known whether it was executed";
const SIGNER_DOWN = "the account's owner key could not sign right now";

async function confirm(
  deps: RevokeDelegateDeps,
  request: RevocationRequest,
  sent: { nonce: number; transactionSignature: `0x${string}` },
  stillListed: string,
  detail?: string,
): Promise<Submitted> {
  const details = detail === undefined ? {} : { detail };
  try {
    const delegates = await deps.chain.getDelegateTraders(request.account);
    if (!delegates.some((d) => d.address === request.delegate)) return { outcome: { kind: 'revoked', sent: true, ...sent }, ...details };
    return { outcome: { kind: 'unconfirmed', sent: true, ...sent, message: stillListed }, ...details };
  } catch (error) {
    return {
      outcome: { kind: 'unconfirmed', sent: true, ...sent, message: 'the delegate list could not be read afterwards' },
      detail: [detail, `reading the delegates afterwards: ${describe(error)}`].filter(Boolean).join('; '),
    };
  }
}

function neverSubmitted(error: unknown): boolean {
  if (error instanceof ChainNetworkError) return error.code !== undefined && NOT_CONNECTED.has(error.code);
  return error instanceof ChainHttpError && error.status === 429;
}

function unreachable(error: unknown): { outcome: RevocationOutcome; detail: string } {
  if (!(error instanceof ChainError)) throw error;
  return { outcome: { kind: 'chain-unreachable', sent: false, message: 'the chain could not be reached' }, detail: error.message };
}

function describe(error: unknown): string {
  return describeError(error, { audience: 'public' });
}

/**
 * Audits an attempt whose transactions did not already record it, queues the result email when
 * the attempt finished, and returns the outcome.
 */
async function finish(deps: RevokeDelegateDeps, request: RevocationRequest, ref: RequestRef, at: number, result: Finished): Promise<RevocationOutcome> {
  const { outcome } = result;
  deps.counters?.count(`Revocation_${outcome.kind}`);
  const message = 'message' in outcome ? outcome.message : 'reason' in outcome ? outcome.reason : result.refusal;
  if (!result.recorded) {
    try {
      await deps.audit.append({
        id: ref.id,
        address: request.account,
        at,
        actor: ref.actor,
        action: 'revoke-delegate',
        outcome: outcome.kind,
        delegate: request.delegate,
        tokenId: ref.tokenId,
        ...(result.reason === undefined ? {} : { reason: result.reason }),
        ...(message === undefined ? {} : { message }),
        ...(result.detail === undefined ? {} : { detail: result.detail }),
      });
    } catch (error) {
      deps.log.error('revocation audit record not written', { account: request.account, outcome: outcome.kind, error: describe(error) });
      deps.counters?.count('RevocationAuditFailures');
    }
  }
  if (outcome.kind === 'revoked' || outcome.kind === 'already-revoked') await markGone(deps, request);
  // A final outcome (something was sent, or nothing needed to be) stays on the used link's token: its page says what happened.
  if (result.authorized && (outcome.sent || outcome.kind === 'already-revoked')) {
    try {
      await deps.tokens.recordOutcome(ref.tokenId, outcome);
    } catch (error) {
      deps.log.error('revocation outcome not kept on the link', { account: request.account, outcome: outcome.kind, error: describe(error) });
    }
  }
  // A refusal of a link that itself verified stays on its token too, unless the token already holds an outcome or was signed.
  if (outcome.kind === 'not-authorized' && outcome.refusal !== undefined && result.refusedConsumedAt !== undefined) {
    try {
      await deps.tokens.recordRefusal(ref.tokenId, result.refusedConsumedAt, outcome.refusal);
    } catch (error) {
      deps.log.error('revocation refusal not kept on the link', { account: request.account, refusal: outcome.refusal, error: describe(error) });
    }
  }
  const email = result.mailed ? resultEmail(request, ref, outcome, result.name, deps.now()) : null;
  if (email) {
    try {
      await sendAll(deps.notify, [{ id: email.eventId, body: email }]);
    } catch (error) {
      deps.log.error('revocation result email not queued', { account: request.account, outcome: outcome.kind, error: describe(error) });
      deps.counters?.count('RevocationNotifyFailures');
    }
  }
  deps.log.info('revocation finished', {
    account: request.account,
    delegate: request.delegate,
    outcome: outcome.kind,
    sent: outcome.sent,
    ...(result.detail === undefined ? {} : { detail: result.detail }),
  });
  return outcome;
}

/**
 * Marks the revoked delegate removed in the stored view (an earlier removal kept). A failure is
 * logged only: the revocation stands, and the next poll marks it.
 */
async function markGone(deps: RevokeDelegateDeps, request: RevocationRequest): Promise<void> {
  try {
    await deps.delegates.markRemoved(request.account, request.delegate, deps.now());
  } catch (error) {
    deps.log.error('revoked delegate not marked removed', { account: request.account, delegate: request.delegate, error: describe(error) });
  }
}

/** How an attempt ended, for {@link finish}. */
interface Finished {
  outcome: RevocationOutcome;
  /** The delegate's name as the chain listed it, for the email. */
  name: string | null;
  detail?: string;
  /** Why a request was refused, for the audit trail. */
  refusal?: string;
  /** When the token a verified link's refusal is kept on was consumed (the refusal is kept only on that consumption). */
  refusedConsumedAt?: number;
  /** Whether a transaction's outcome record already holds it. */
  recorded: boolean;
  /** Whether this revocation's own result email is queued (not for a unit of a revoke-all batch, nor an automatic action). */
  mailed: boolean;
  /** An automatic action's reason, for the audit. */
  reason?: string;
  /** Whether a consumed link authorized it (its outcome is then kept on the link's token). */
  authorized: boolean;
}

/** The `revocation-result` notify event of a finished attempt; none when nothing happened worth an email. */
function resultEmail(request: RevocationRequest, ref: RequestRef, outcome: RevocationOutcome, name: string | null, now: number): NotifyEvent | null {
  const base = {
    kind: 'revocation-result' as const,
    eventId: `revocation-result#${ref.id}`,
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
