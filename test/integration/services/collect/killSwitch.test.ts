import { beforeAll, describe, expect, it } from 'vitest';
import type { ChainClient } from '../../../../functions/chain/ports';
import type { ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import type { NotifyMessage } from '../../../../functions/messages/notifyMessage';
import { collectAccount, type CollectDeps } from '../../../../functions/services/collect/collectAccount';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { RefinementBudget } from '../../../../functions/services/collect/refinementBudget';
import { drawdown, drawdownCurve } from '../../../../functions/domain/drawdown';
import { alignCurves } from '../../../../functions/domain/series';
import { storedSeries } from '../../../../functions/store/storedSeries';
import { refusedUnit } from '../../../../functions/domain/decisionUnit';
import { MAX_NOTICE_DELEGATES } from '../../../../functions/domain/protectiveDecision';
import { announceDecisionSettled } from '../../../../functions/services/revocation/announceDecisionSettled';
import { presentNotice } from '../../../../functions/notices/presentNotice';
import { rearmKillSwitch } from '../../../../functions/services/protection/rearmKillSwitch';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import type { FileProtectionSwitch } from '../../../../functions/store/fileProtectionSwitch';
import { readKillSwitchState } from '../../../../functions/store/killSwitchStateItem';
import type { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { startDecisionChain } from '../../../support/collect/decisionChain';
import { notifyRecorder } from '../../../support/collect/notifyRecorder';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type KillSwitchMessage = Extract<NotifyMessage, { kind: 'kill-switch' }>;

/**
 * The kill switch end to end: collect (against the chain simulator over HTTP, DynamoDB Local)
 * decides (the two `1m` minutes up to the crossing, from a peak the account held) and asks the real protection service, which queues
 * decision units; the real signing handler re-checks each decision and submits
 * `RemoveDelegateManager` with the owner's key to the simulator, which checks the signature with
 * its own implementation. The clocks are virtual and move together.
 */
describe('kill switch on drawdown (collect → protection service → queue → signer → chain)', () => {
  const h = pipelineHarness();
  let protection: FileProtectionSwitch;
  let decisions: InProcessQueue<DecisionJob>;
  let revoke: ProtectiveRevoker;
  const requests: ProtectiveActionRequest[] = [];
  const signerEnv: Record<string, string | undefined> = {};
  const notified: NotifyMessage[] = [];
  let keys = 0;

  beforeAll(async () => {
    let protect: ProtectiveRevoker;
    ({ protection, decisions, protect } = await startDecisionChain(h, { signerEnv, notified }));
    await protection.write('on');
    revoke = async (request) => {
      requests.push(request);
      return protect(request);
    };
  });

  type PollOptions = { chain?: ChainClient; skewMs?: number; backfillMs?: number };
  function deps(options: PollOptions = {}): CollectDeps {
    return {
      chain: options.chain ?? h.chain,
      repos: h.repos,
      events: notifyRecorder(notified),
      log: silentLog,
      counters: memoryCounters(),
      settings: { ...DEFAULT_COLLECT_SETTINGS, ...(options.backfillMs === undefined ? {} : { backfillMs: options.backfillMs }) },
      now: () => h.now() + (options.skewMs ?? 0),
      refinementBudget: new RefinementBudget(100, h.now),
      revoke,
    };
  }

  /** One poll of the account now (as its due job), then the decision queue delivered. */
  async function poll(address: string, options: PollOptions = {}): Promise<void> {
    const outcome = await collectAccount(deps(options), { address: address as `0x${string}`, dueAt: h.now() + (options.skewMs ?? 0) });
    expect(outcome.kind).toBe('collected');
    await decisions.drain();
  }

  /**
   * A tracked `1h` account with a signer and three keys: a bot, a kept bot (`--keep-delegate`) and
   * a web session; armed at 30% with `settings`, past its first poll.
   */
  async function armedAccount(label: string, settings: Record<string, unknown> = {}, options: { shockBeforeTracking?: number } = {}) {
    const created = (await h.control.createAccount({ label, profile: CALM } as never)) as { address: string; privateKey: string };
    const variable = `KILL_SWITCH_OWNER_${++keys}`;
    signerEnv[variable] = created.privateKey;
    const bot = await h.control.addDelegate(created.address, { name: 'desk bot', expiresInMs: 30 * DAY });
    const kept = await h.control.addDelegate(created.address, { name: 'hedger', expiresInMs: 30 * DAY });
    const web = await h.control.addDelegate(created.address, { name: 'browser', isWebClient: true, expiresInMs: 30 * DAY });
    if (options.shockBeforeTracking !== undefined) {
      await h.control.drawdown(created.address, { pct: options.shockBeforeTracking });
      await h.advance(2 * HOUR);
    }
    await h.track(label, { interval: '1h', killSwitch: 30, keepDelegate: kept.delegate.address, signer: `env:${variable}`, ...settings }, undefined, created);
    await poll(created.address);
    return { address: created.address, bot: bot.delegate.address, kept: kept.delegate.address, web: web.delegate.address };
  }

  /** A loss of `pct` % at the half hour, then the clock to 5 minutes past the next hour. */
  async function lose(address: string, pct: number): Promise<void> {
    await h.advance(30 * MINUTE);
    await h.control.drawdown(address, { pct });
    await h.advance(35 * MINUTE);
  }

  const listed = async (address: string) => (await h.control.account(address)).delegates.map((d) => d.address);
  const viewsListed = async (address: string) => (await h.repos.delegates.listForAccount(address)).filter((v) => v.removedAt === null).map((v) => v.delegate);
  const killNotices = (address: string) => notified.filter((n): n is KillSwitchMessage => n.kind === 'kill-switch' && n.account === address);
  const asked = (address: string) => requests.filter((r) => r.account === address);
  const stateOf = async (address: string) => (await readKillSwitchState(h.repos.alerts, address)).state;

  it('a real loss past the level, confirmed an interval later, revokes every delegate but the kept ones, once, with one notice; rearm allows a second firing', async () => {
    const { address, bot, kept, web } = await armedAccount('lossy');
    await lose(address, 35);
    await poll(address);
    expect(await stateOf(address)).toMatchObject({ status: 'pending' });
    expect(asked(address)).toEqual([]);
    expect(await listed(address)).toHaveLength(3);

    await h.advance(HOUR);
    await poll(address);
    expect(asked(address)).toHaveLength(1);
    const [request] = asked(address);
    expect(request).toMatchObject({ rule: 'kill-switch', delegates: expect.arrayContaining([bot, kept]) });
    expect(request!.delegates).not.toContain(web);
    expect(request!.reason).toMatch(/^kill-switch: drawdown 3\d\.\d\d% now, 1-minute re-read 3\d\.\d% ≥ 30% at \d{4}-\d\d-\d\dT/);
    expect(Number(request!.evidence['rereadPct'])).toBeGreaterThanOrEqual(30);
    expect(request!.evidence).toMatchObject({ rereadFrom: 'chain', rereadPeakSamples: 3 });
    // Revoked on chain (the simulator checked the owner's signature); the kept key and the web session stay.
    expect(new Set(await listed(address))).toEqual(new Set([kept, web]));
    // What the Revoke-all page and the desk list (the stored views): the revoked key gone at once, not at the next poll.
    expect(new Set(await viewsListed(address))).toEqual(new Set([kept, web]));
    const audit = await h.repos.audit.listForAccount(address, 20);
    expect(audit.some((r) => r.kind === 'intent' && r.delegate === bot && r.reason === request!.reason)).toBe(true);

    const [notice] = killNotices(address);
    expect(killNotices(address)).toHaveLength(1);
    expect(notice!.firing.action).toMatchObject({ kind: 'requested', outcome: { kind: 'queued', delegates: [bot] } });
    expect(notice!.firing.keptWebSessions).toEqual([web]);
    const shown = presentNotice(notice!, {
      account: { address, label: null, timezone: 'UTC' },
      links: { revokeUrl: () => null, snoozeUrl: () => 'https://example.test/s', preferencesUrl: () => 'https://example.test/p', revokeAllUrl: () => null },
      delegateCount: 2,
    });
    expect(shown.category).toBe('security');
    expect(shown.summary).toContain('resting orders, TWAPs and open positions stay');
    // Fired once the signer settled: its result notice names what was revoked and what is left.
    const decisionId =
      notice!.firing.action.kind === 'requested' && notice!.firing.action.outcome.kind === 'queued' ? notice!.firing.action.outcome.decisionId : '';
    expect(await stateOf(address)).toEqual({ status: 'revoking', at: expect.any(Number), decisionId });
    const results = notified.filter((n) => n.kind === 'decision-result' && n.account === address);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ eventId: `decision-result#${decisionId}`, result: { units: [{ address: bot, status: 'revoked', name: 'desk bot' }] } });
    // Its line for the key says what happened once ("revoked: revoked (…)" said it twice).
    const resultShown = presentNotice(results[0]!, {
      account: { address, label: null, timezone: 'UTC' },
      links: { revokeUrl: () => null, snoozeUrl: () => 'https://example.test/s', preferencesUrl: () => 'https://example.test/p', revokeAllUrl: () => null },
      delegateCount: 1,
    });
    expect(resultShown.fields).toContainEqual(
      expect.objectContaining({
        label: expect.stringContaining(bot),
        value: expect.stringMatching(/^revoked: the chain accepted the transaction \(nonce \d+\)$/),
      }),
    );

    // Still past the level at the next polls: not again.
    for (let i = 0; i < 2; i++) {
      await h.advance(HOUR);
      await poll(address);
    }
    expect(asked(address)).toHaveLength(1);
    expect(killNotices(address)).toHaveLength(1);

    // A day later (past the cap's rolling day), a new bot key; rearmed, the next crossing evaluation fires again.
    await h.advance(DAY);
    const second = await h.control.addDelegate(address, { name: 'new bot', expiresInMs: 30 * DAY });
    await poll(address);
    expect(asked(address)).toHaveLength(1);
    const rearmed = await rearmKillSwitch({ alerts: h.repos.alerts, audit: h.repos.audit, now: h.now }, { address, by: 'test' });
    expect(rearmed).toEqual({ kind: 'rearmed', from: expect.objectContaining({ status: 'revoking' }) });
    expect((await h.repos.audit.listForAccount(address, 50)).some((r) => r.action === 'kill-switch-rearm')).toBe(true);
    await h.advance(HOUR);
    await poll(address);
    expect(await stateOf(address)).toMatchObject({ status: 'pending' });
    await h.advance(HOUR);
    await poll(address);
    expect(asked(address)).toHaveLength(2);
    expect(new Set(await listed(address))).toEqual(new Set([kept, web]));
    expect(killNotices(address).map((n) => n.firing.action)).toEqual([
      expect.objectContaining({ outcome: expect.objectContaining({ kind: 'queued', delegates: [bot] }) }),
      expect.objectContaining({ outcome: expect.objectContaining({ kind: 'queued', delegates: [second.delegate.address] }) }),
    ]);
  }, 300_000);

  it('--kill-switch-confirm now acts on the first evaluation past the level (after the re-read)', async () => {
    const { address, bot, kept, web } = await armedAccount('hasty', { killSwitchConfirm: 'now' });
    await lose(address, 40);
    await poll(address);
    expect(asked(address)).toHaveLength(1);
    expect(new Set(await listed(address))).toEqual(new Set([kept, web]));
    expect(killNotices(address)[0]?.firing.action).toMatchObject({ outcome: { kind: 'queued', delegates: [bot] } });
  }, 180_000);

  it('a poll redelivered after a crash before its commit asks for the same decision: one decision, one cap slot, each key signed once', async () => {
    const { address, bot, kept, web } = await armedAccount('redelivered', { killSwitchConfirm: 'now' });
    await lose(address, 40);
    const job = { address: address as `0x${string}`, dueAt: h.now() };
    // The first run crashes after asking the protection service, before its notices are queued and its state written.
    const crashing: CollectDeps = { ...deps(), events: { send: async () => Promise.reject(new Error('the notify queue did not answer')) } };
    await expect(collectAccount(crashing, job)).rejects.toThrow('the notify queue did not answer');
    await decisions.drain();
    expect(await collectAccount(deps(), job)).toMatchObject({ kind: 'collected' });
    await decisions.drain();
    const ids = asked(address).map((r) => r.occasion);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toEqual(ids[0]);
    const [notice] = killNotices(address);
    const decisionId =
      notice?.firing.action.kind === 'requested' && notice.firing.action.outcome.kind === 'queued' ? notice.firing.action.outcome.decisionId : '';
    // The redelivered run tells what the decision did, not "no key to revoke" (the key is gone by then).
    expect(notice?.firing.action).toMatchObject({ outcome: { kind: 'queued', delegates: [bot] } });
    expect(await stateOf(address)).toEqual({ status: 'revoking', at: expect.any(Number), decisionId });
    expect((await h.repos.protectionLedger.cap('kill-switch', address))?.entries.map((e) => e.decisionId)).toEqual([decisionId]);
    const intents = (await h.repos.audit.listForAccount(address, 50)).filter((r) => r.kind === 'intent');
    expect(intents.map((r) => r.delegate)).toEqual([bot]);
    expect(new Set(await listed(address))).toEqual(new Set([kept, web]));
    expect(new Set(notified.filter((n) => n.kind === 'decision-result' && n.account === address).map((n) => n.eventId))).toEqual(
      new Set([`decision-result#${decisionId}`]),
    );
  }, 180_000);

  it('a dry run revokes nothing and says what it would have revoked', async () => {
    const { address, bot, kept, web } = await armedAccount('rehearsal', { killSwitchConfirm: 'now', killSwitchDryRun: 'on', killSwitchWebSessions: 'revoke' });
    await lose(address, 40);
    await poll(address);
    expect(new Set(await listed(address))).toEqual(new Set([bot, kept, web]));
    const [notice] = killNotices(address);
    expect(notice?.firing.action).toMatchObject({ kind: 'requested', outcome: { kind: 'dry-run', delegates: expect.arrayContaining([bot, web]) } });
    const shown = presentNotice(notice!, {
      account: { address, label: null, timezone: 'UTC' },
      links: { revokeUrl: () => null, snoozeUrl: () => 'https://example.test/s', preferencesUrl: () => 'https://example.test/p', revokeAllUrl: () => null },
      delegateCount: 3,
    });
    expect(shown.title).toContain('would have fired (dry run)');
    expect(shown.fields.find((f) => f.label === 'Keys')?.value).toContain(bot);
  }, 180_000);

  it(`on an account with more keys than a notice lists (${MAX_NOTICE_DELEGATES}), the firing and its result are still told: one valid notice each, counting every key`, async () => {
    const { address } = await armedAccount('crowded', { killSwitchConfirm: 'now', killSwitchDryRun: 'on', killSwitchWebSessions: 'revoke' });
    const extra = MAX_NOTICE_DELEGATES + 5 - 3;
    for (let i = 0; i < extra; i += 25)
      await Promise.all(
        Array.from({ length: Math.min(25, extra - i) }, (_, j) => h.control.addDelegate(address, { name: `bot ${i + j}`, expiresInMs: 30 * DAY })),
      );
    await lose(address, 40);
    await poll(address);
    // The recorder parses each queued message as the notify consumer does: both notices were rejected before.
    const [notice] = killNotices(address);
    expect(notice?.firing.action).toMatchObject({ kind: 'requested', outcome: { kind: 'dry-run' } });
    expect(notice?.firing.unlisted).toEqual({ acted: 4, kept: 0 });
    const context = {
      account: { address, label: null, timezone: 'UTC' },
      links: { revokeUrl: () => null, snoozeUrl: () => 'https://example.test/s', preferencesUrl: () => 'https://example.test/p', revokeAllUrl: () => null },
      delegateCount: MAX_NOTICE_DELEGATES + 5,
    };
    // Every key but the kept one: 204, of which the notice names 200.
    const shown = presentNotice(notice!, context);
    expect(shown.title).toBe(`Kill switch would have fired (dry run): ${MAX_NOTICE_DELEGATES + 4} keys`);
    expect(shown.summary).toContain(`This notice names ${MAX_NOTICE_DELEGATES} of the ${MAX_NOTICE_DELEGATES + 4} keys`);

    // The same decision armed (the dry run's, recorded with all 204 keys), settled as the signer settles one: each key refused (signing 204 would take the suite 20 s).
    const dryRunId =
      notice!.firing.action.kind === 'requested' && 'decisionId' in notice!.firing.action.outcome ? notice!.firing.action.outcome.decisionId : '';
    const dryRun = await h.repos.decisions.get(dryRunId);
    expect(dryRun?.delegates).toHaveLength(MAX_NOTICE_DELEGATES + 4);
    const decision = { ...dryRun!, decisionId: `${dryRunId}-armed`, dryRun: false };
    expect((await h.repos.decisions.put(decision)).kind).toBe('written');
    await Promise.all(
      decision.delegates.map((d) =>
        h.repos.decisions.finishUnit(decision.decisionId, d, refusedUnit({ code: 'protection-off', text: 'protection was turned off' }, null)),
      ),
    );
    await announceDecisionSettled({ decisions: h.repos.decisions, notify: notifyRecorder(notified), chain: h.chain, log: silentLog }, decision, true);
    const results = notified.filter((n): n is Extract<NotifyMessage, { kind: 'decision-result' }> => n.kind === 'decision-result' && n.account === address);
    expect(results).toHaveLength(1);
    expect(results[0]?.result.units).toHaveLength(MAX_NOTICE_DELEGATES);
    expect(results[0]?.result.unlisted).toEqual({ revoked: 0, gone: 0, refused: 4, failed: 0, left: 5 });
    const told = presentNotice(results[0]!, context);
    expect(told.title).toBe('Kill switch fired, keys NOT revoked: protection was turned off');
    expect(told.summary).toContain(`: 0 revoked, ${MAX_NOTICE_DELEGATES + 4} not.`);
  }, 180_000);

  it('a withdrawal never fires it', async () => {
    const { address } = await armedAccount('withdrawn', { killSwitchConfirm: 'now' });
    const equity = (await h.control.account(address)).equity;
    await h.advance(30 * MINUTE);
    await h.control.withdraw(address, { amount: Math.round(equity * 0.6) });
    await h.advance(35 * MINUTE);
    for (let i = 0; i < 3; i++) {
      await poll(address);
      await h.advance(HOUR);
    }
    expect(asked(address)).toEqual([]);
    expect(killNotices(address)).toEqual([]);
    expect(await listed(address)).toHaveLength(3);
  }, 180_000);

  it('stale data never fires it', async () => {
    const { address } = await armedAccount('stale', { killSwitchConfirm: 'now' });
    await lose(address, 40);
    // The service's clock runs 5 hours ahead of the chain's newest point: the data is stale.
    for (let i = 0; i < 2; i++) {
      await poll(address, { skewMs: 5 * HOUR + i * HOUR });
    }
    expect(asked(address)).toEqual([]);
    expect(killNotices(address)).toEqual([]);
    expect(await stateOf(address)).toMatchObject({ status: 'idle' });
  }, 180_000);

  it('a crossing from before tracking never fires it', async () => {
    const { address } = await armedAccount('underwater', { killSwitchConfirm: 'now' }, { shockBeforeTracking: 40 });
    expect(await stateOf(address)).toMatchObject({ status: 'baseline' });
    for (let i = 0; i < 2; i++) {
      await h.advance(HOUR);
      await poll(address);
    }
    expect(asked(address)).toEqual([]);
    expect(killNotices(address)).toEqual([]);
  }, 180_000);

  it('a one-sample spike that set the peak is refuted by the 1m re-read: nothing revoked', async () => {
    const { address } = await armedAccount('spiky', { killSwitchConfirm: 'now' });
    await h.advance(HOUR);
    const spikeAt = Math.floor(h.now() / HOUR) * HOUR;
    // The hourly sample at `spikeAt` shows a trading gain of 80% of equity (equity and PnL) that its minutes do not.
    const spiking: ChainClient = {
      ...h.chain,
      getPortfolio: async (query, options) => {
        const page = await h.chain.getPortfolio(query, options);
        if (query.interval !== '1h') return page;
        const gainAt = new Map(page.equity.map((p) => [p.timestamp, 0.8 * Number(p.value)]));
        const spiked = (points: typeof page.pnl) =>
          points.map((p) => (p.timestamp === spikeAt ? { ...p, value: String(Number(p.value) + (gainAt.get(p.timestamp) ?? 0)) } : p));
        return { ...page, equity: spiked(page.equity), pnl: spiked(page.pnl) };
      },
    };
    await poll(address, { chain: spiking });
    await h.advance(HOUR);
    await poll(address, { chain: spiking });
    expect(asked(address)).toEqual([]);
    expect(killNotices(address)).toEqual([]);
    expect(await listed(address)).toHaveLength(3);
    // The interval data alone said fire: the stored drawdown is past the level, and the switch did not fire.
    const stored = drawdown(storedSeries(await h.repos.curves.queryRange(address, '1h', h.now() - 2 * DAY, h.now())));
    expect(stored?.peakAt).toBe(spikeAt);
    expect(stored?.currentPct).toBeGreaterThan(30);
    // Neither fired nor revoking (a queued decision's state).
    expect(['idle', 'pending']).toContain((await stateOf(address))?.status ?? 'idle');
  }, 180_000);

  describe('a 1m account (polled 30 s into every minute)', () => {
    /** Two hours of history is enough for a minute account here, and keeps its first poll small. */
    const MINUTE_POLL: PollOptions = { backfillMs: 2 * HOUR };
    const KEYS_ONLY_WEB = 1;

    /**
     * A tracked `1m` account with a signer, two API keys and a web session, armed at 20% (`confirm`
     * as given) with a 20% drawdown alert; the clock 30 s into a minute, past its first poll.
     */
    async function armedMinuteAccount(label: string, confirm: 'now' | 'wait') {
      const created = (await h.control.createAccount({ label, profile: CALM } as never)) as { address: string; privateKey: string };
      const variable = `KILL_SWITCH_OWNER_${++keys}`;
      signerEnv[variable] = created.privateKey;
      for (const name of ['runaway bot', 'hedger']) await h.control.addDelegate(created.address, { name, expiresInMs: 30 * DAY });
      const web = await h.control.addDelegate(created.address, { name: 'browser', isWebClient: true, expiresInMs: 30 * DAY });
      await h.advance(MINUTE + 30_000 - (h.now() % MINUTE));
      await h.track(label, { interval: '1m', killSwitch: 20, killSwitchConfirm: confirm, drawdown: '20', signer: `env:${variable}` }, undefined, created);
      await poll(created.address, MINUTE_POLL);
      return { address: created.address, web: web.delegate.address, trackedAt: h.now() };
    }

    /** The first `1m` point of the chain's curves whose flow-adjusted drawdown (since `from`) reaches `levelPct`. */
    async function chainFirstShows(address: string, from: number, levelPct: number): Promise<number | undefined> {
      const page = await h.chain.getPortfolio({ account: address, from, to: h.now(), interval: '1m' });
      return drawdownCurve(alignCurves(page.equity, page.pnl)).find((p) => p.drawdownPct >= levelPct)?.timestamp;
    }

    it('losing 30% over two minutes with --kill-switch-confirm now: every key revoked at the poll 90 s after the chain first shows 20%', async () => {
      const { address, web, trackedAt } = await armedMinuteAccount('runaway', 'now');
      await h.control.drawdown(address, { pct: 30, overMs: 2 * MINUTE });
      let revokedAt: number | null = null;
      for (let i = 0; i < 6 && revokedAt === null; i++) {
        await h.advance(MINUTE);
        await poll(address, MINUTE_POLL);
        if ((await listed(address)).length === KEYS_ONLY_WEB) revokedAt = h.now();
      }
      const shownAt = await chainFirstShows(address, trackedAt - MINUTE_POLL.backfillMs!, 20);
      expect(shownAt).toBeDefined();
      // The poll 30 s after the crossing's minute sees one minute past the level; the next one, a minute later, sees two and acts.
      expect(revokedAt).toBe(shownAt! + MINUTE + 30_000);
      expect(await listed(address)).toEqual([web]);
      const [request] = asked(address);
      // The minutes are the account's own stored points: no request to the chain.
      expect(request!.evidence).toMatchObject({ minuteBeforeAt: shownAt, troughAt: shownAt! + MINUTE, rereadPeakSamples: 3, rereadFrom: 'stored' });
      expect(Number(request!.evidence['rereadMinuteBeforePct'])).toBeGreaterThanOrEqual(20);
      // Fired once the signer settled: the state names the decision, whose one result has both API keys revoked.
      expect(await stateOf(address)).toMatchObject({ status: 'revoking', decisionId: expect.any(String) });
      const results = notified.flatMap((n) => (n.kind === 'decision-result' && n.account === address ? [n.result] : []));
      expect(results).toHaveLength(1);
      expect(results[0]!.units.map((u) => u.status)).toEqual(['revoked', 'revoked']);
      // The drawdown alert went out at the first of those polls, a minute earlier.
      expect(notified.find((n) => n.kind === 'drawdown' && n.account === address)).toMatchObject({ asOf: shownAt });
    }, 300_000);

    it('a bad print up at the peak, then one down at the trough, revoke nothing though the stored drawdown passed the level', async () => {
      const { address } = await armedMinuteAccount('misprinted', 'now');
      await h.control.print(address, { pct: 60 });
      await h.control.print(address, { pct: -40, atMs: h.now() + 4 * MINUTE });
      let passed = false;
      for (let i = 0; i < 8; i++) {
        await h.advance(MINUTE);
        await poll(address, MINUTE_POLL);
        const stored = drawdown(storedSeries(await h.repos.curves.queryRange(address, '1m', h.now() - HOUR, h.now())));
        passed ||= (stored?.currentPct ?? 0) >= 20;
      }
      expect(passed).toBe(true);
      expect(asked(address)).toEqual([]);
      expect(killNotices(address)).toEqual([]);
      expect(await listed(address)).toHaveLength(3);
      expect(await stateOf(address)).toMatchObject({ status: 'idle' });
    }, 300_000);

    /** The indexer fails for five minutes (every poll fails, the cursor stays) while the account loses 30%. */
    async function loseWhileLagging(address: string): Promise<void> {
      await h.control.setFaults({ routes: { portfolio: { error500: 1 } } });
      await h.control.drawdown(address, { pct: 30, overMs: 2 * MINUTE });
      for (let i = 0; i < 5; i++) {
        await h.advance(MINUTE);
        expect((await collectAccount(deps(MINUTE_POLL), { address: address as `0x${string}`, dueAt: h.now() })).kind).toBe('chain-failed');
      }
      await h.control.resetFaults();
    }

    it('with --kill-switch-confirm wait, a loss that arrives in a catch-up batch already held for minutes fires at the poll that brings it', async () => {
      const { address, web } = await armedMinuteAccount('lagged', 'wait');
      await loseWhileLagging(address);
      await h.advance(MINUTE);
      await poll(address, MINUTE_POLL);
      expect(await listed(address)).toEqual([web]);
      expect(asked(address)).toHaveLength(1);
      expect(Number(asked(address)[0]!.evidence['troughAt'])).toBe(Math.floor(h.now() / MINUTE) * MINUTE);
    }, 300_000);

    it('a catch-up batch that crossed and came back within it: the notice gives the drawdown now, the evidence the crossing', async () => {
      const { address } = await armedMinuteAccount('lagged-back', 'now');
      await loseWhileLagging(address);
      // The batch's newest minute is back above the level (20% up from 70: 16% below the peak).
      await h.control.print(address, { pct: 20 });
      await h.advance(MINUTE);
      await poll(address, MINUTE_POLL);
      const [request] = asked(address);
      const [notice] = killNotices(address);
      expect(Number(request!.evidence['crossingPct'])).toBeGreaterThanOrEqual(20);
      const now = Number(request!.evidence['drawdownPct']);
      expect(now).toBeLessThan(20);
      expect(notice!.firing.drawdownPct).toBeCloseTo(now, 6);
    }, 300_000);
  });
});
