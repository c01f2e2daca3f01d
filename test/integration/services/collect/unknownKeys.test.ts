import { beforeAll, describe, expect, it } from 'vitest';
import { ChainTimeoutError } from '../../../../functions/chain/errors';
import { checksumAddress } from '../../../../functions/domain/address';
import type { ChainClient } from '../../../../functions/chain/ports';
import type { ProtectiveActionOutcome, ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import type { DelegateWatchJob } from '../../../../functions/messages/collectJob';
import type { NotifyMessage } from '../../../../functions/messages/notifyMessage';
import { watchDelegateBatch } from '../../../../functions/services/collect/watchDelegateBatch';
import { takeKnownDelegates } from '../../../../functions/services/knownKeys/takeKnownDelegates';
import { presentNotice } from '../../../../functions/notices/presentNotice';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { harnessCollectDeps } from '../../../support/collect/harnessCollectDeps';
import { alertNoticeInput } from '../../../support/channels/noticeFixtures';
import type { CollectDeps } from '../../../../functions/services/collect/collectDeps';
import { recordDeskSummary } from '../../../../functions/services/desk/recordDeskSummary';
import { latestUnknownKeyDecisionIn } from '../../../../functions/store/unknownKeyDecisionItem';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Unknown-key protection in the delegate watch, against the chain simulator over HTTP and
 * DynamoDB Local. The protection service is another component: here a small recording port
 * stands in for it (it answers `queued` unless told otherwise), so these tests see exactly what
 * the watch asks of it, and what the notices say.
 */
describe('unknown keys revoked on sight (delegate watch)', () => {
  const h = pipelineHarness();
  let requests: ProtectiveActionRequest[] = [];
  const answer: (request: ProtectiveActionRequest) => ProtectiveActionOutcome = (r) => ({
    kind: 'queued',
    decisionId: `unknown-decision-${requests.length}`,
    delegates: r.delegates,
  });
  const revoke: ProtectiveRevoker = async (request) => {
    requests.push(request);
    return answer(request);
  };
  const notified: NotifyMessage[] = [];

  beforeAll(async () => {
    await h.advance(10 * MINUTE); // past the daily accounts' curve slots: only their watch is due
  });

  const deps = (chain: ChainClient = h.chain): CollectDeps => ({
    ...harnessCollectDeps(h, notified, revoke, chain),
    recordDeskSummary: (account, now) => recordDeskSummary(h.repos, account, now),
  });
  /** The latest unknown-key decision kept for `address`: on its alert states, and on its desk summary. */
  const keptDecision = async (address: string) => ({
    alerts: latestUnknownKeyDecisionIn(await h.repos.alerts.listForAccount(address)),
    summary: (await h.repos.deskSummaries.getMany([address])).get(address)?.unknownKeyDecision ?? null,
  });

  /** `minutes` dispatch runs a minute apart, each watch job run at once (the watch cadence is 5 minutes). */
  async function watchFor(minutes: number, chain?: ChainClient): Promise<void> {
    for (let m = 0; m < minutes; m++) {
      await h.advance(MINUTE);
      const queued = await h.dispatch();
      for (const job of queued.filter((q): q is DelegateWatchJob => 'kind' in q)) await watchDelegateBatch(deps(chain), job);
    }
  }

  /** A tracked account with one bot key, armed with `mode` as `accounts add --revoke-unknown` does, past its first poll and watch. */
  async function armedAccount(label: string, mode: 'api-keys' | 'all') {
    const created = await h.control.createAccount({ label, profile: CALM } as never);
    const bot = await h.control.addDelegate(created.address, { name: 'desk bot' });
    await h.track(label, { interval: '1d', revokeUnknown: mode }, undefined, created);
    const armed = await takeKnownDelegates(
      { chain: h.chain, accounts: h.repos.accounts, delegates: h.repos.delegates, knownDelegates: h.repos.knownDelegates },
      created.address,
      h.now(),
    );
    expect(armed).toEqual({ kind: 'taken', keys: 1 });
    await h.pipeline.runCycle({ kind: 'due' }); // the first poll: the delegate views' baseline
    await watchFor(5);
    requests = [];
    return { address: created.address, bot: bot.delegate.address };
  }

  const mine = (address: string) =>
    notified.filter((n): n is Extract<NotifyMessage, { kind: 'new-delegate' }> => n.kind === 'new-delegate' && n.account === address);

  it('an unknown API key is handed to the protection port within the watch cadence, exactly that delegate, and the notice says it was revoked', async () => {
    const { address, bot } = await armedAccount('stranger', 'api-keys');
    const intruder = await h.control.addDelegate(address, { name: 'not ours' });
    const addedAt = h.now();
    await watchFor(5);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ account: address, rule: 'unknown-delegate', reason: 'unknown delegate', delegates: [intruder.delegate.address] });
    expect(request!.delegates).not.toContain(bot);
    expect(request!.evidence).toMatchObject({ delegate: intruder.delegate.address, isWebClient: false, mode: 'api-keys' });
    expect(request!.now - addedAt).toBeLessThanOrEqual(5 * MINUTE);
    expect(request!.evidence['firstSeenAt']).toBe(request!.now);
    expect(request!.evidence['readAt']).toBe(request!.now);

    const [notice] = mine(address);
    expect(notice?.protection).toEqual({
      verdict: 'unknown',
      mode: 'api-keys',
      webSession: false,
      repeatWithinDay: false,
      withinDay: 1,
      action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'unknown-decision-1', delegates: [intruder.delegate.address] } },
    });

    // Kept for the desk's overview, and on the summary at once: a 1d account's next curve poll is hours away.
    const first = { decisionId: 'unknown-decision-1', at: request!.now };
    expect(await keptDecision(address)).toEqual({ alerts: first, summary: first });

    // Still listed at the next checks (the stand-in queues nothing): not asked again.
    await watchFor(10);
    expect(requests).toHaveLength(1);

    // A second unknown key within the day: the notice says to move funds.
    const second = await h.control.addDelegate(address, { name: 'another' });
    await watchFor(5);
    expect(requests.map((r) => r.delegates)).toEqual([[intruder.delegate.address], [second.delegate.address]]);
    const repeat = mine(address).find((n) => n.delegate.address === second.delegate.address);
    expect(repeat?.protection).toMatchObject({ verdict: 'unknown', repeatWithinDay: true, withinDay: 2 });
    // The first is kept beside it: the overview shows whichever of the two the desk must act on.
    const latest = { decisionId: 'unknown-decision-2', at: requests[1]!.now, earlier: [first] };
    expect(await keptDecision(address)).toEqual({ alerts: latest, summary: latest });

    // A third one the same day is the third, not "the second" again.
    const third = await h.control.addDelegate(address, { name: 'a third' });
    await watchFor(5);
    const last = mine(address).find((n) => n.delegate.address === third.delegate.address);
    expect(last?.protection).toMatchObject({ verdict: 'unknown', repeatWithinDay: true, withinDay: 3 });
  }, 120_000);

  it('an announced delegate is kept (no request), noticed as expected, and known from then on', async () => {
    const { address } = await armedAccount('announced', 'all');
    const key = '0x00000000000000000000000000000000000a11ce';
    await h.repos.knownDelegates.announce(address, { delegate: checksumAddress(key), announcedAt: h.now(), expiresAt: h.now() + HOUR });
    const expected = await h.control.addDelegate(address, { address: key, name: 'new bot' });
    await watchFor(5);
    expect(requests).toEqual([]);
    const [notice] = mine(address);
    expect(notice?.protection).toEqual({ verdict: 'announced', expiresAt: expect.any(Number) });
    const state = await h.repos.knownDelegates.read(address);
    expect(state.known.has(expected.delegate.address.toLowerCase())).toBe(true);
  }, 120_000);

  it('a new web session under api-keys is not revoked, but raised as a security notice that pages', async () => {
    const { address } = await armedAccount('websession', 'api-keys');
    const web = await h.control.addDelegate(address, { name: 'browser', isWebClient: true });
    await watchFor(5);
    expect(requests).toEqual([]);
    const [message] = mine(address);
    expect(message?.delegate.address).toBe(web.delegate.address);
    expect(message?.protection).toMatchObject({ verdict: 'unknown', webSession: true, action: { kind: 'kept-web-session' } });
    const notice = presentNotice(message!, alertNoticeInput(address, null));
    expect(notice.category).toBe('security');
    expect(notice.severity).toBe('critical');
    expect(notice.incident).toEqual({ key: `delegate:${address.toLowerCase()}:${web.delegate.address.toLowerCase()}`, action: 'trigger' });
    expect(notice.links.map((l) => l.action)).toContain('revoke');
  }, 120_000);

  it('a failed or empty delegate read asks for nothing; the known keys listed again stay known', async () => {
    const { address, bot } = await armedAccount('hiccup', 'all');
    const extra = await h.control.addDelegate(address, { name: 'second bot' });
    await h.repos.knownDelegates.recordKeys(address, { known: [checksumAddress(extra.delegate.address)], source: 'announced', at: h.now() });
    await watchFor(5);
    requests = [];
    const failing: ChainClient = {
      ...h.chain,
      getDelegateTraders: async () => Promise.reject(new ChainTimeoutError({ request: 'GET /delegate-traders', timeoutMs: 1, attempts: 1 })),
    };
    await watchFor(5, failing);
    expect(requests.filter((r) => r.account === address)).toEqual([]);
    const empty: ChainClient = { ...h.chain, getDelegateTraders: async () => [] };
    await watchFor(5, empty);
    expect(requests.filter((r) => r.account === address)).toEqual([]);
    const partial: ChainClient = { ...h.chain, getDelegateTraders: async (a) => (await h.chain.getDelegateTraders(a)).filter((d) => d.address === bot) };
    await watchFor(5, partial);
    await watchFor(5); // the whole list again: both keys reappear as "new" to the views, and are known
    expect(requests.filter((r) => r.account === address)).toEqual([]);
    const reappeared = mine(address).filter((n) => n.at > h.now() - 6 * MINUTE);
    expect(reappeared.map((n) => n.delegate.address)).toEqual([extra.delegate.address]);
    expect(reappeared[0]?.protection).toBeUndefined();
  }, 120_000);

  it('arming without a chain read leaves the baseline to the next watch check, which takes it even though nothing changed', async () => {
    const created = await h.control.createAccount({ label: 'late-baseline', profile: CALM } as never);
    const { delegate: bot } = await h.control.addDelegate(created.address, { name: 'desk bot' });
    await h.track('late-baseline', { interval: '1d', revokeUnknown: 'api-keys' }, undefined, created);
    await h.pipeline.runCycle({ kind: 'due' });
    await watchFor(5); // the watch's mark now matches the unchanged list
    const armed = await takeKnownDelegates(
      { chain: null, accounts: h.repos.accounts, delegates: h.repos.delegates, knownDelegates: h.repos.knownDelegates },
      created.address,
      h.now(),
    );
    expect(armed).toEqual({ kind: 'pending', reason: 'no chain configured' });
    expect((await h.repos.knownDelegates.read(created.address)).baselineAt).toBeNull();
    requests = [];
    await watchFor(5);
    const state = await h.repos.knownDelegates.read(created.address);
    expect(state.baselineAt).not.toBeNull();
    expect([...state.known]).toEqual([bot.address.toLowerCase()]);
    const intruder = await h.control.addDelegate(created.address, { name: 'not ours' });
    await watchFor(5);
    expect(requests.filter((r) => r.account === created.address).map((r) => r.delegates)).toEqual([[intruder.delegate.address]]);
  }, 120_000);
});
