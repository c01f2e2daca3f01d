import type { ChainClient } from '../../../functions/chain/ports';
import type { ProtectiveRevoker } from '../../../functions/domain/protectiveAction';
import type { NotifyMessage } from '../../../functions/messages/notifyMessage';
import type { CollectDeps } from '../../../functions/services/collect/collectDeps';
import { DEFAULT_COLLECT_SETTINGS } from '../../../functions/services/collect/collectSettings';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { notifyRecorder } from './notifyRecorder';
import type { PipelineHarness } from './pipelineHarness';

/**
 * The collect service's dependencies over a pipeline harness: its repositories and clock (and its
 * chain unless `chain` is given), the default settings, the notices recorded in `notified`, and
 * unknown keys asked of `revoke`.
 */
export function harnessCollectDeps(h: PipelineHarness, notified: NotifyMessage[], revoke: ProtectiveRevoker, chain: ChainClient = h.chain): CollectDeps {
  return {
    chain,
    repos: h.repos,
    events: notifyRecorder(notified),
    log: silentLog,
    counters: memoryCounters(),
    settings: DEFAULT_COLLECT_SETTINGS,
    now: h.now,
    revoke,
  };
}
