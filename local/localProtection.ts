import { KMSClient } from '@aws-sdk/client-kms';
import type { ChainClient, Signer } from '../functions/chain/ports';
import { resolveSigner } from '../functions/chain/resolveSigner';
import type { Settings } from '../functions/config/settings';
import type { ProtectiveRevoker } from '../functions/domain/protectiveAction';
import type { ProtectionSwitch } from '../functions/domain/protectionSwitch';
import { createSignRevocationHandler } from '../functions/handlers/sign-revocation';
import type { DecisionJob } from '../functions/messages/decisionJob';
import type { NotifyEvent } from '../functions/messages/notifyMessage';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { createDecisionWorkerHandler } from '../functions/handlers/decision-worker';
import { DECISION_BATCH_SIZE, DECISION_QUEUE } from '../functions/services/protection/decisionQueueSettings';
import { protectionService } from '../functions/services/protection/protect';
import type { Counters, Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import { signerCallOf } from '../functions/web/signerCallOf';
import { InProcessRevocationSigner } from './inProcessRevocationSigner';
import { LinkClaimsReader } from '../functions/links/linkReader';
import { LinkTokenCodec } from '../functions/links/linkToken';
import { LinkTokenVerifier } from '../functions/links/linkTokenVerifier';
import { localLinkSecrets } from '../functions/runtime/secretVersion';
import { InProcessQueue, type QueueClock } from './queue/inProcessQueue';
import type { QueueJournal } from './queue/queueJournal';
import { deployedRedelivery } from './queue/deployedRedelivery';

export interface LocalProtectionOptions {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly chain: ChainClient;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  /** Where the signer queues a click's result email (the local notify queue). */
  readonly notify: MessageQueue<NotifyEvent>;
  /** The stage-wide switch the service and the signer read. */
  readonly protection: ProtectionSwitch;
  /** Where `env:` signer references are looked up (default: the process environment). */
  readonly signerEnv?: Readonly<Record<string, string | undefined>>;
  /** Builds the signer a reference names, instead of resolving it from `signerEnv` or KMS (the chaos run's key-service outage). */
  readonly signerFor?: (ref: string) => Promise<Signer>;
  /** How long a failed decision unit waits before redelivery; default as deployed. */
  readonly visibilityTimeoutMs?: number;
  readonly clock?: QueueClock;
  /** Keeps the decision queue's messages across restarts (`npm start`, `serve`); default memory only. */
  readonly journal?: QueueJournal;
}

/** The signing function and the protective-decision path, wired in-process. */
export interface LocalProtection {
  /** The `sign-revocation` handler behind an in-process invoke, as the pages and workers call it. */
  readonly signer: InProcessRevocationSigner;
  /** The protective-decision queue (in place of the SQS FIFO queue) with its worker: one delegate at a time. */
  readonly decisions: InProcessQueue<DecisionJob>;
  /** The protection service the rule evaluators call (queues on `decisions`). */
  readonly protect: ProtectiveRevoker;
}

/**
 * The deployed signing handler (owner keys from `env:` references or KMS), the decision queue and
 * its worker, and the protection service, as `npm start`, `serve` and the CLI's `collect` run
 * them: an automatic revocation goes through the same signer, lease, nonce and audit as a click.
 */
export function createLocalProtection(options: LocalProtectionOptions): LocalProtection {
  const { settings, repos, log, counters, now, protection } = options;
  let kms: KMSClient | undefined;
  // A click's link is verified with the local keys (`SENTINEL_LINK_SECRET`); without them no link verifies.
  const secrets = localLinkSecrets(settings);
  const verifier = secrets ? new LinkTokenCodec(secrets.current, secrets.previous).verifier() : new LinkTokenVerifier([]);
  const signRevocation = createSignRevocationHandler({
    accounts: repos.accounts,
    leases: repos.leases,
    audit: repos.audit,
    tokens: repos.tokens,
    links: new LinkClaimsReader(verifier),
    channels: repos.channels,
    notify: options.notify,
    delegates: repos.delegates,
    chain: options.chain,
    signerFor:
      options.signerFor ??
      ((ref) => resolveSigner(ref, { env: options.signerEnv ?? process.env, kms: (kms ??= new KMSClient({ region: settings.AWS_REGION })) })),
    now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log,
    counters,
    automatic: {
      decisions: repos.decisions,
      knownDelegates: repos.knownDelegates,
      ledger: repos.protectionLedger,
      protection,
      maxAgeMs: settings.PROTECTION_DECISION_MAX_AGE_MINUTES * 60_000,
      breakerAccounts: settings.PROTECTION_BREAKER_ACCOUNTS,
    },
  });
  const signer = new InProcessRevocationSigner(signRevocation);
  // A unit to retry is hidden for its backoff, as `ChangeMessageVisibility` does in AWS.
  const decisions: InProcessQueue<DecisionJob> = new InProcessQueue<DecisionJob>({
    name: 'sentinel-decisions',
    consumer: createDecisionWorkerHandler({
      sign: signerCallOf(signer),
      log,
      counters,
      visibility: { change: (message, seconds) => decisions.change(message, seconds) },
    }),
    batchSize: DECISION_BATCH_SIZE,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? DECISION_QUEUE.visibilityTimeoutSeconds * 1_000,
    ...deployedRedelivery(DECISION_QUEUE, options),
  });
  const protect = protectionService({
    protection,
    accounts: repos.accounts,
    knownDelegates: repos.knownDelegates,
    decisions: repos.decisions,
    queue: decisions,
    log,
    counters,
  });
  return { signer, decisions, protect };
}
