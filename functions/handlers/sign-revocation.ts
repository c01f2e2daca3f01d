import { notifyPublisher } from '../runtime/notifyPublisher';
import { KMSClient } from '@aws-sdk/client-kms';
import type { Context } from 'aws-lambda';
import { resolveKmsSigner } from '../chain/resolveKmsSigner';
import { settingsFor } from '../config/settings';
import { InvalidRevocationRequestError } from '../services/revocation/invalidRevocationRequestError';
import { chainFrom, someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { AccountsRepository } from '../store/accountsRepository';
import { AuditRepository } from '../store/auditRepository';
import { LeaseRepository } from '../store/leaseRepository';
import { TokenRepository } from '../store/tokenRepository';
import { DecisionRepository } from '../store/decisionRepository';
import { KnownDelegatesRepository } from '../store/knownDelegatesRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { LinkClaimsReader } from '../links/linkReader';
import { linkVerifierFrom } from '../runtime/pageSecurityFrom';
import { ProtectionLedgerRepository } from '../store/protectionLedgerRepository';
import { protectionSwitchFrom } from '../runtime/protectionSwitchFrom';
import { lazyHandler } from '../runtime/lazyHandler';
import { revocationRequestSchema, type RevocationOutcome } from '../domain/revocationOutcome';
import { revokeDelegate, type RevokeDelegateDeps } from '../services/revocation/revokeDelegate';
import type { NotifyEvent } from '../messages/notifyMessage';
import { createObservability } from '../shared/observability';
import { firstIssue } from '../shared/firstIssue';

/** What `sign-revocation` needs: the ports of `revokeDelegate`, and where metrics are flushed after each call. */
export type SignRevocationDeps = RevokeDelegateDeps & { readonly flushMetrics?: () => void; readonly addContext?: (context: Context) => void };

/**
 * The private signing function, the only code that uses owner keys. Takes exactly
 * `{account, delegate, tokenId, token}` (a person's click: `token` the signed link, which it
 * verifies itself) or `{account, delegate, decisionId}` (an automatic action); anything else
 * throws `InvalidRevocationRequestError`. Returns the `RevocationOutcome`; a request whose signed
 * link does not verify or does not match a revocation token the page has just consumed, or a
 * decision that no longer holds at signing time, is `not-authorized`.
 */
export function createSignRevocationHandler(deps: SignRevocationDeps) {
  return async (event: unknown, context?: Context): Promise<RevocationOutcome> => {
    if (context) deps.addContext?.(context);
    const request = revocationRequestSchema.safeParse(event);
    if (!request.success) {
      throw new InvalidRevocationRequestError(
        `sign-revocation takes {account, delegate, tokenId, token} or {account, delegate, decisionId}: ${firstIssue(request.error, 'event')}`,
      );
    }
    try {
      return await revokeDelegate(deps, request.data);
    } finally {
      deps.flushMetrics?.();
    }
  };
}

/**
 * Deps from the Lambda environment: DynamoDB (consumed link tokens, decisions, caps among them,
 * the channels a chat's link names), the published public keys of revoke and revoke-all links
 * (SSM), the chain, the notify queue, KMS for `kms:` signers, the protection switch's SSM parameter.
 */
export async function signRevocationDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<SignRevocationDeps> {
  const settings = settingsFor('sign-revocation', env);
  const { log, counters, flush, addContext } = createObservability('sign-revocation');
  const repos = someRepositoriesFrom(settings, {
    accounts: AccountsRepository,
    leases: LeaseRepository,
    audit: AuditRepository,
    tokens: TokenRepository,
    decisions: DecisionRepository,
    protectionLedger: ProtectionLedgerRepository,
    knownDelegates: KnownDelegatesRepository,
    delegates: DelegateViewRepository,
    channels: ChannelsRepository,
  });
  const links = new LinkClaimsReader(await linkVerifierFrom(settings, ['revoke', 'revoke-all']));
  const kms = new KMSClient({ region: settings.AWS_REGION });
  return {
    accounts: repos.accounts,
    leases: repos.leases,
    audit: repos.audit,
    tokens: repos.tokens,
    links,
    channels: repos.channels,
    notify: notifyPublisher(sqsQueueFrom<NotifyEvent>(settings, 'NOTIFY_QUEUE_URL'), sqsQueueFrom(settings, 'FANOUT_QUEUE_URL')),
    delegates: repos.delegates,
    chain: chainFrom(settings, log),
    signerFor: (ref) => resolveKmsSigner(ref, kms),
    automatic: {
      decisions: repos.decisions,
      knownDelegates: repos.knownDelegates,
      ledger: repos.protectionLedger,
      protection: protectionSwitchFrom(settings),
      maxAgeMs: settings.PROTECTION_DECISION_MAX_AGE_MINUTES * 60_000,
      breakerAccounts: settings.PROTECTION_BREAKER_ACCOUNTS,
    },
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log,
    counters,
    flushMetrics: flush,
    addContext,
  };
}

export const handler = lazyHandler(async () => createSignRevocationHandler(await signRevocationDepsFromEnv()));
