import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSigner } from '../../../functions/chain/resolveSigner';
import { createDecisionWorkerHandler } from '../../../functions/handlers/decision-worker';
import { createSignRevocationHandler } from '../../../functions/handlers/sign-revocation';
import { LinkClaimsReader } from '../../../functions/links/linkReader';
import { LinkTokenVerifier } from '../../../functions/links/linkTokenVerifier';
import type { DecisionJob } from '../../../functions/messages/decisionJob';
import type { NotifyMessage } from '../../../functions/messages/notifyMessage';
import { protectionService } from '../../../functions/services/protection/protect';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { FileProtectionSwitch } from '../../../functions/store/fileProtectionSwitch';
import { signerCallOf } from '../../../functions/web/signerCallOf';
import { InProcessRevocationSigner } from '../../../local/inProcessRevocationSigner';
import { InProcessQueue } from '../../../local/queue/inProcessQueue';
import { notifyRecorder } from './notifyRecorder';
import type { PipelineHarness } from './pipelineHarness';

/** How old a decision the chain's signer still signs for. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * The automatic revocation path over a pipeline harness, as deployed: the protection service
 * queues decisions on an in-process decision queue, whose real worker hands each to the real
 * signing handler (decisions only: no link key is held), which submits to the harness's chain.
 * The stage-wide switch is a file of its own, off until a test turns it on; owner keys are
 * resolved from `signerEnv`; what the signer notifies lands in `notified`.
 */
export async function startDecisionChain(h: PipelineHarness, parts: { signerEnv: Record<string, string | undefined>; notified: NotifyMessage[] }) {
  const protection = new FileProtectionSwitch(join(await mkdtemp(join(tmpdir(), 'protection-')), 'protection'));
  const sign = createSignRevocationHandler({
    accounts: h.repos.accounts,
    leases: h.repos.leases,
    audit: h.repos.audit,
    tokens: h.repos.tokens,
    links: new LinkClaimsReader(new LinkTokenVerifier([])),
    channels: h.repos.channels,
    notify: notifyRecorder(parts.notified),
    delegates: h.repos.delegates,
    chain: h.chain,
    signerFor: (ref) => resolveSigner(ref, { env: parts.signerEnv }),
    now: h.now,
    sleep: async () => undefined,
    log: silentLog,
    automatic: {
      decisions: h.repos.decisions,
      knownDelegates: h.repos.knownDelegates,
      ledger: h.repos.protectionLedger,
      protection,
      maxAgeMs: MAX_AGE_MS,
      breakerAccounts: 5,
    },
  });
  const decisions = new InProcessQueue<DecisionJob>({
    name: 'decisions',
    consumer: createDecisionWorkerHandler({ sign: signerCallOf(new InProcessRevocationSigner(sign)), log: silentLog, counters: memoryCounters() }),
    batchSize: 1,
  });
  const protect = protectionService({
    protection,
    accounts: h.repos.accounts,
    knownDelegates: h.repos.knownDelegates,
    decisions: h.repos.decisions,
    queue: decisions,
    log: silentLog,
  });
  return { protection, decisions, protect };
}
