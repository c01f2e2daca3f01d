import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import { killSwitchStateText } from '../../../../functions/domain/killSwitchStateText';
import { finishedUnit, refusedUnit } from '../../../../functions/domain/decisionUnit';
import { unknownKeyDecisionText } from '../../../../functions/domain/unknownKeyDecisionText';
import { recordDeskSummary } from '../../../../functions/services/desk/recordDeskSummary';
import { tableName } from '../../../../functions/store/tableDefinitions';
import { recordLatestUnknownKeyDecision } from '../../../../functions/store/unknownKeyDecisionItem';
import { meterCapacity } from '../../../support/store/capacityMeter';
import { createDecisionWorkerHandler } from '../../../../functions/handlers/decision-worker';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import { protectionStatus } from '../../../../functions/services/status/protectionStatus';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { escapeHtml } from '../../../../functions/web/html';
import { signerCallOf } from '../../../../functions/web/signerCallOf';
import { InProcessRevocationSigner } from '../../../../local/inProcessRevocationSigner';
import { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { changedCursor, deskClient, expectCursorsRefused, hiddenFields, signIn, startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import {
  formOf,
  getPage,
  HOUR,
  revocationWorld,
  submitForm,
  titleOf,
  worldProtection,
  type TrackedSimAccount,
} from '../../../support/revocation/revocationWorld';
import { unescapeHtml } from '../../../support/htmlText';

const chain = revocationWorld();
let desk: DeskWorld;
let queue: InProcessQueue<DecisionJob>;
let protect: ProtectiveRevoker;
const OPS = `ops-protection-${Math.random().toString(36).slice(2, 8)}@example.com`;

beforeAll(async () => {
  // The desk's Revoke buttons mint the links the revocation world's pages (/revoke, /revoke-all) verify.
  desk = await startDeskWorld(chain.tables, { operatorEmail: OPS, repos: chain.repos, revokeLinks: chain.links });
  const signer = new InProcessRevocationSigner(createSignRevocationHandler({ ...chain.signDeps, now: Date.now }));
  queue = new InProcessQueue<DecisionJob>({
    name: 'desk-decisions',
    consumer: createDecisionWorkerHandler({ sign: signerCallOf(signer), log: silentLog, counters: memoryCounters() }),
    batchSize: 1,
    visibilityTimeoutMs: 120_000,
    maxReceiveCount: 10,
  });
  protect = worldProtection(chain, queue);
  await chain.protection.write('on');
});
afterAll(async () => {
  await desk?.close();
});

function killSwitchRequest(account: TrackedSimAccount, reason: string, evidence: ProtectiveActionRequest['evidence']): ProtectiveActionRequest {
  const at = Date.now();
  return {
    account: account.address,
    rule: 'kill-switch',
    reason,
    delegates: account.delegates.map((d) => d.address),
    evidence,
    occasion: { at, generation: 0 },
    now: at,
  };
}

describe("an account's protection on the desk: the kill switch now, and every automatic decision with its outcome and evidence", () => {
  it("shows a fired kill switch in accounts show's words, its decision revoked on the chain with the figures it acted on, and a dry run; nothing of another account", async () => {
    const fired = await chain.trackAccount({ label: 'desk-fired', delegates: ['bot'] });
    await chain.repos.accounts.updateSettings(fired.address, { killSwitch: 30, timezone: 'Asia/Kolkata' });
    const reason = 'kill-switch: drawdown 31.20% now, 1-minute re-read 30.40% ≥ 30% at 2030-01-07T09:00:00.000Z';
    const trough = Date.UTC(2030, 0, 7, 9, 0);
    const evidence = {
      drawdownPct: 31.2,
      rereadPct: 30.4,
      rereadMinuteBeforePct: 31.817848367129255,
      levelPct: 30,
      equity: 6880.5,
      troughAt: trough,
      heldSince: trough - 60_000,
      rereadFrom: 'stored',
    };
    const outcome = await protect(killSwitchRequest(fired, reason, evidence));
    expect(outcome.kind).toBe('queued');
    if (outcome.kind !== 'queued') return;
    // What collect keeps when the kill switch fires.
    await chain.repos.alerts.compareAndSet(fired.address, 'kill-switch', null, { status: 'revoking', at: Date.now(), decisionId: outcome.decisionId });
    await queue.drain();
    expect((await chain.chainState(fired.address)).delegates).toEqual([]);

    const dry = await chain.trackAccount({ label: 'desk-dry', delegates: ['mm'] });
    await chain.repos.accounts.updateSettings(dry.address, { killSwitch: 25, killSwitchDryRun: true });
    const dryReason = 'kill-switch: drawdown 26.00% now, 1-minute re-read 25.50% ≥ 25% at 2030-01-07T10:00:00.000Z';
    expect((await protect(killSwitchRequest(dry, dryReason, { drawdownPct: 26, rereadPct: 25.5, levelPct: 25 }))).kind).toBe('dry-run');

    const client = deskClient(desk);
    await signIn(desk, client, OPS);
    const page = await client.get(`/desk/accounts/${fired.address}`);
    expect(page.status).toBe(200);
    // The kill switch's state exactly as `accounts show` words it (the same function over the same reads).
    const shown = await protectionStatus(chain.repos, (await chain.repos.accounts.get(fired.address))!);
    expect(shown.killSwitch?.settlement?.count.revoked).toBe(1);
    const text = killSwitchStateText(shown.killSwitch!.state, fired.address, shown.killSwitch!.settlement);
    expect(text).toContain('1 of 1 key revoked');
    expect(page.body).toContain(`Kill switch now: ${escapeHtml(text)}`);
    // The decision, its outcome, its evidence and what became of the delegate.
    expect(page.body).toContain(escapeHtml(reason));
    expect(page.body).toMatch(/badge b-ok">1 of 1 key revoked</);
    // Percentages and fractions as the emails write them, the stored figure kept for machines.
    for (const [name, value] of [
      ['drawdownPct', '<data value="31.2">31.20%</data>'],
      ['rereadPct', '<data value="30.4">30.40%</data>'],
      ['rereadMinuteBeforePct', '<data value="31.817848367129255">31.82%</data>'],
      ['levelPct', '<data value="30">30.00%</data>'],
      ['equity', '<data value="6880.5">6,880.50</data>'],
    ])
      expect(page.body).toContain(`<dt>${name}</dt><dd>${value}</dd>`);
    // The instants in the account's zone (Kolkata, +5:30), as the rest of the page, with the exact time for machines; never raw epoch ms.
    expect(page.body).toContain('<dt>troughAt</dt><dd><time datetime="2030-01-07T09:00:00.000Z">Mon, 7 Jan 2030, 14:30 IST</time></dd>');
    expect(page.body).toContain('<dt>heldSince</dt><dd><time datetime="2030-01-07T08:59:00.000Z">Mon, 7 Jan 2030, 14:29 IST</time></dd>');
    expect(page.body).not.toContain(String(trough));
    expect(page.body).toContain('<dt>rereadFrom</dt><dd>stored</dd>');
    expect(page.body).toContain(`<code>${fired.delegates[0]!.address}</code> (bot): revoked`);
    expect(page.body).not.toContain(escapeHtml(dryReason));

    const dryPage = await client.get(`/desk/accounts/${dry.address}`);
    expect(dryPage.body).toContain(escapeHtml(dryReason));
    expect(dryPage.body).toContain('dry run: nothing revoked');
    expect(dryPage.body).toContain(`<code>${dry.delegates[0]!.address}</code>: not revoked (dry run)`);
    expect(dryPage.body).toContain('<dt>rereadPct</dt><dd><data value="25.5">25.50%</data></dd>');
    expect(dryPage.body).not.toContain(escapeHtml(reason));
    expect((await chain.chainState(dry.address)).delegates).toHaveLength(1);
  });

  it('says so when an account has no decision, and leaves the kill switch line out when it has no kill switch', async () => {
    const quiet = await chain.trackAccount({ label: 'desk-quiet', delegates: [] });
    const client = deskClient(desk);
    await signIn(desk, client, OPS);
    const page = await client.get(`/desk/accounts/${quiet.address}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('No automatic decision in the last 90 days.');
    expect(page.body).not.toContain('Kill switch now:');
  });
});

/** The overview row of the account labelled `label`: its protection badge (class and words). */
function overviewProtection(body: string, label: string): { badge: string; text: string } | null {
  const row = body.split('<tr>').find((r) => r.includes(`>${label} (0x`));
  const match = row === undefined ? null : /class="badge ([\w-]+)">(kill switch[^<]*)</.exec(row);
  return match ? { badge: match[1]!, text: unescapeHtml(match[2]!) } : null;
}

/** The account page's Protection badge (class and words). */
function pageProtection(body: string): { badge: string; text: string } | null {
  const match = /id="h-prot">Protection<\/h2>\s*<p><span class="badge ([\w-]+)">([^<]*)</.exec(body);
  return match ? { badge: match[1]!, text: unescapeHtml(match[2]!) } : null;
}

describe("the kill switch's badge on the overview and the account page: a firing is never shown as armed", () => {
  it('says FIRED for a queued firing (revoking) and a refused one, "fired in a dry run" for a dry run, armed only when armed; sorted by protection, firings first', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const track = async (name: string, settings: { killSwitch: number; killSwitchDryRun?: boolean }) => {
      const account = await chain.trackAccount({ label: `ks-${tag}-${name}`, delegates: ['bot', 'mm'] });
      await chain.repos.accounts.updateSettings(account.address, settings);
      return account;
    };
    const armed = await track('armed', { killSwitch: 10 });
    const revoking = await track('revoking', { killSwitch: 10 });
    const capped = await track('capped', { killSwitch: 10 });
    const dry = await track('dry', { killSwitch: 5, killSwitchDryRun: true });
    const outcome = await protect(killSwitchRequest(revoking, 'kill-switch: drawdown 30.00% now', { drawdownPct: 30, levelPct: 10 }));
    expect(outcome.kind).toBe('queued');
    if (outcome.kind !== 'queued') return;
    // What collect keeps when the kill switch fires: a queued firing (every real one), then its keys revoked.
    await chain.repos.alerts.compareAndSet(revoking.address, 'kill-switch', null, { status: 'revoking', at: Date.now(), decisionId: outcome.decisionId });
    const client = deskClient(desk);
    await signIn(desk, client, OPS);
    const queued = await client.get(`/desk?q=ks-${tag}-revoking`);
    expect(overviewProtection(queued.body, `ks-${tag}-revoking`)).toEqual({ badge: 'b-bad', text: 'kill switch FIRED (10%; keys being revoked)' });
    await queue.drain();
    expect((await chain.chainState(revoking.address)).delegates).toEqual([]);
    // A queued firing the signer refused: its units end refused (as the signer records a refusal), nothing revoked.
    const refused = await track('refused', { killSwitch: 10 });
    const refusal = await protect(killSwitchRequest(refused, 'kill-switch: drawdown 30.00% now', { drawdownPct: 30, levelPct: 10 }));
    expect(refusal.kind).toBe('queued');
    if (refusal.kind !== 'queued') return;
    await chain.repos.alerts.compareAndSet(refused.address, 'kill-switch', null, { status: 'revoking', at: Date.now(), decisionId: refusal.decisionId });
    const decision = await chain.repos.decisions.get(refusal.decisionId);
    for (const delegate of decision?.delegates ?? [])
      expect(
        (await chain.repos.decisions.finishUnit(refusal.decisionId, delegate, refusedUnit({ code: 'breaker-open', text: 'the breaker was open' }, null))).kind,
      ).toBe('finished');
    expect(decision?.delegates.length).toBeGreaterThan(0);
    await chain.repos.alerts.compareAndSet(capped.address, 'kill-switch', null, { status: 'fired', at: Date.now(), outcome: 'capped' });
    await chain.repos.alerts.compareAndSet(dry.address, 'kill-switch', null, { status: 'fired', at: Date.now(), outcome: 'dry-run' });

    const overview = await client.get(`/desk?sort=protection&dir=desc&q=ks-${tag}-`);
    expect(overview.status).toBe(200);
    const expected = {
      revoking: { badge: 'b-bad', text: 'kill switch FIRED (10%; 2 of 2 keys revoked)' },
      refused: { badge: 'b-bad', text: 'kill switch FIRED (10%; refused, nothing revoked: the breaker was open)' },
      capped: { badge: 'b-bad', text: 'kill switch FIRED (10%; nothing revoked: the cap was reached)' },
      dry: { badge: 'b-info', text: 'kill switch fired in a dry run (5%; nothing revoked)' },
      armed: { badge: 'b-ok', text: 'kill switch armed (10%)' },
    };
    for (const [name, shown] of Object.entries(expected)) expect(overviewProtection(overview.body, `ks-${tag}-${name}`), name).toEqual(shown);
    // Firings first (the queued ones and the one refused before queueing, by name), then the dry run's firing, then armed.
    const order = [...overview.body.matchAll(new RegExp(`>ks-${tag}-(\\w+) \\(0x`, 'g'))].map((m) => m[1]);
    expect(order).toEqual(['capped', 'refused', 'revoking', 'dry', 'armed']);

    for (const [account, name] of [
      [revoking, 'revoking'],
      [refused, 'refused'],
      [capped, 'capped'],
      [dry, 'dry'],
      [armed, 'armed'],
    ] as const) {
      const page = await client.get(`/desk/accounts/${account.address}`);
      expect(page.status).toBe(200);
      expect(pageProtection(page.body), name).toEqual(expected[name]);
    }
  });
});

/** The overview row of `label`'s unknown-key line: its link, badge class and words; `null` when the row has none. */
function overviewUnknownKey(body: string, label: string): { href: string; badge: string; text: string } | null {
  const row = body.split('<tr>').find((r) => r.includes(`>${label} (0x`));
  const match = row === undefined ? null : /<a href="([^"]+)"><span class="badge wide ([\w-]+)">(Unknown key [^<]*)</.exec(row);
  return match ? { href: unescapeHtml(match[1]!), badge: match[2]!, text: unescapeHtml(match[3]!) } : null;
}

describe('an unknown key revoked automatically, on the overview: while it is revoked, and a day (not revoked: three) after', () => {
  it("shows each account's latest unknown-key decision in status's words, linked to its decisions; reads no decision for an account without a recent one", async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const now = Date.now();
    const tokens = tableName(chain.tables.prefix, 'tokens');
    const meter = meterCapacity();
    /** An account with one key its owner did not expect, and (unless `at` is null) an unknown-key decision about it made at `at`, kept as collect keeps it. */
    const decided = async (name: string, at: number | null) => {
      const account = await chain.trackAccount({ label: `uk-${tag}-${name}`, delegates: ['stranger'] });
      await chain.repos.accounts.updateSettings(account.address, { revokeUnknown: 'api-keys' });
      const key = account.delegates[0]!.address;
      const decisionId = `unknown-${tag}-${name}-0000000000`;
      if (at !== null) {
        const decision = {
          decisionId,
          account: account.address,
          rule: 'unknown-delegate' as const,
          reason: 'unknown delegate',
          delegates: [key],
          createdAt: at,
          dryRun: false,
        };
        expect((await chain.repos.decisions.put({ ...decision, evidence: { delegate: key, judgedAgain: false } })).kind).toBe('written');
        await chain.repos.knownDelegates.recordKeys(account.address, { unknown: [{ key, at, decisionId }], at });
        await recordLatestUnknownKeyDecision(chain.repos.alerts, account.address, { decisionId, at });
      }
      return { account, key, decisionId };
    };
    const revoking = await decided('revoking', now - 60_000);
    const revoked = await decided('revoked', now - 2 * HOUR);
    const refused = await decided('refused', now - 30 * HOUR);
    const stale = await decided('stale', now - 80 * HOUR);
    const quiet = await decided('quiet', null);
    // Refused 30 hours ago, then a second unknown key revoked an hour ago: the refusal must stay in sight.
    const masked = await decided('masked', now - 30 * HOUR);
    const second = await chain.control.addDelegate(masked.account.address, { name: 'second-stranger', expiresInMs: 48 * HOUR });
    const secondKey = second.delegate.address as `0x${string}`;
    const secondId = `unknown-${tag}-masked2-0000000000`;
    expect(
      (
        await chain.repos.decisions.put({
          decisionId: secondId,
          account: masked.account.address,
          rule: 'unknown-delegate',
          reason: 'unknown delegate',
          delegates: [secondKey],
          createdAt: now - HOUR,
          dryRun: false,
          evidence: { delegate: secondKey, judgedAgain: false },
        })
      ).kind,
    ).toBe('written');
    await recordLatestUnknownKeyDecision(chain.repos.alerts, masked.account.address, { decisionId: secondId, at: now - HOUR });
    const nonce = { kind: 'revoked' as const, sent: true as const, nonce: 7, transactionSignature: '0xab' };
    expect((await chain.repos.decisions.finishUnit(revoked.decisionId, revoked.key, finishedUnit(nonce, now, 'stranger', null))).kind).toBe('finished');
    expect(
      (await chain.repos.decisions.finishUnit(refused.decisionId, refused.key, refusedUnit({ code: 'breaker-open', text: 'the breaker was open' }, null))).kind,
    ).toBe('finished');
    expect((await chain.repos.decisions.finishUnit(stale.decisionId, stale.key, finishedUnit(nonce, now, 'stranger', null))).kind).toBe('finished');
    expect(
      (await chain.repos.decisions.finishUnit(masked.decisionId, masked.key, refusedUnit({ code: 'breaker-open', text: 'the breaker was open' }, null))).kind,
    ).toBe('finished');
    expect((await chain.repos.decisions.finishUnit(secondId, secondKey, finishedUnit(nonce, now, 'second-stranger', null))).kind).toBe('finished');
    // Its row from its desk summary, which carries both decisions.
    await recordDeskSummary(chain.repos, (await chain.repos.accounts.get(masked.account.address))!, now);
    expect((await chain.repos.deskSummaries.getMany([masked.account.address])).get(masked.account.address)?.unknownKeyDecision).toEqual({
      decisionId: secondId,
      at: now - HOUR,
      earlier: [{ decisionId: masked.decisionId, at: now - 30 * HOUR }],
    });
    // The revoked one's row from its desk summary (what collect stores after a poll), the others measured from the store.
    await recordDeskSummary(chain.repos, (await chain.repos.accounts.get(revoked.account.address))!, now);
    expect((await chain.repos.deskSummaries.getMany([revoked.account.address])).get(revoked.account.address)?.unknownKeyDecision).toEqual({
      decisionId: revoked.decisionId,
      at: now - 2 * HOUR,
    });

    const client = deskClient(desk);
    await signIn(desk, client, OPS);
    const overview = await client.get(`/desk?q=uk-${tag}-`);
    expect(overview.status).toBe(200);
    const status = async (d: Awaited<ReturnType<typeof decided>>) => {
      const shown = await protectionStatus(chain.repos, (await chain.repos.accounts.get(d.account.address))!);
      return `Unknown key ${unknownKeyDecisionText(shown.unknownKeys.find((u) => u.decisionId === d.decisionId)!)}`;
    };
    const decisions = (d: Awaited<ReturnType<typeof decided>>) => `${desk.server.url}/desk/accounts/${d.account.address}#h-decisions`;
    expect(overviewUnknownKey(overview.body, `uk-${tag}-revoking`)).toEqual({
      href: decisions(revoking),
      badge: 'b-warn',
      text: `Unknown key ${revoking.key}: being revoked (decision ${revoking.decisionId})`,
    });
    expect(overviewUnknownKey(overview.body, `uk-${tag}-revoked`)).toEqual({ href: decisions(revoked), badge: 'b-ok', text: await status(revoked) });
    expect(overviewUnknownKey(overview.body, `uk-${tag}-revoked`)?.text).toContain(': revoked (');
    // Refused 30 hours ago: past a revocation's day, still shown, in the words `status` uses.
    expect(overviewUnknownKey(overview.body, `uk-${tag}-refused`)).toEqual({ href: decisions(refused), badge: 'b-bad', text: await status(refused) });
    expect(overviewUnknownKey(overview.body, `uk-${tag}-refused`)?.text).toContain(': NOT revoked, refused at ');
    // The later key was revoked, but the refused one is what the desk must act on.
    expect(overviewUnknownKey(overview.body, `uk-${tag}-masked`)).toEqual({ href: decisions(masked), badge: 'b-bad', text: await status(masked) });
    expect(overviewUnknownKey(overview.body, `uk-${tag}-masked`)?.text).toContain(`${masked.key}: NOT revoked, refused at `);
    for (const name of ['stale', 'quiet']) {
      expect(overview.body, name).toContain(`>uk-${tag}-${name} (0x`);
      expect(overviewUnknownKey(overview.body, `uk-${tag}-${name}`), name).toBeNull();
    }
    // The link leads to the account page's automatic decisions, which list the same decision.
    const page = await client.get(decisions(refused));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2 id="h-decisions">');
    expect(page.body).toContain(`<code>${refused.key}</code>: refused, the breaker was open`);

    // Cost: a recipient's overview reads no decision for an account without a recent one, and the decision and its unit for one with.
    const tokenReads = async (d: Awaited<ReturnType<typeof decided>>) => {
      const viewer = deskClient(desk);
      await signIn(desk, viewer, d.account.emails[0]!);
      meter.take(tokens);
      expect((await viewer.get('/desk')).status).toBe(200);
      return meter.take(tokens).read;
    };
    expect(await tokenReads(quiet)).toBe(0);
    expect(await tokenReads(stale)).toBe(0);
    expect(await tokenReads(revoked)).toBeGreaterThan(0);
  });
});

describe('the decisions index', () => {
  it("lists one account's decisions newest first, never another's", async () => {
    const a = await chain.trackAccount({ label: 'idx-a', delegates: ['k1'] });
    const b = await chain.trackAccount({ label: 'idx-b', delegates: ['k2'] });
    const put = (id: string, account: TrackedSimAccount, createdAt: number) =>
      chain.repos.decisions.put({
        decisionId: id,
        account: account.address,
        rule: 'kill-switch',
        reason: 'test',
        evidence: {},
        delegates: [account.delegates[0]!.address],
        createdAt,
        dryRun: true,
      });
    await put('idx-a-older-000001', a, Date.now() - 60_000);
    await put('idx-a-newer-000002', a, Date.now());
    await put('idx-b-other-000003', b, Date.now());
    const all = await chain.repos.decisions.pageForAccount(a.address, 10, null);
    expect(all.decisions.map((d) => d.decisionId)).toEqual(['idx-a-newer-000002', 'idx-a-older-000001']);
    expect(all.next).toBeNull();
    const first = await chain.repos.decisions.pageForAccount(a.address, 1, null);
    expect(first.decisions.map((d) => d.decisionId)).toEqual(['idx-a-newer-000002']);
    expect(first.next).not.toBeNull();
    const second = await chain.repos.decisions.pageForAccount(a.address, 1, first.next);
    expect(second.decisions.map((d) => d.decisionId)).toEqual(['idx-a-older-000001']);
    expect(second.next).toBeNull();
    await expect(chain.repos.decisions.pageForAccount(a.address, 1, 'not-a-position')).rejects.toThrow('not a decision position');
  });
});

/** The numbers of the decisions an account page shows (their reasons are `paged decision <n>`), in the page's order. */
function decisionNumbers(body: string): string[] {
  return [...body.matchAll(/paged decision (\d{3})/g)].map((m) => m[1] ?? '');
}

/** The "Older" link of the automatic decisions, or null. */
function olderDecisions(body: string): string | null {
  const match = /href="([^"]+)" rel="next">Older<span class="visually-hidden"> automatic decisions/.exec(body);
  return match ? unescapeHtml(match[1] ?? '') : null;
}

describe('an account\'s automatic decisions beyond one page: an "Older" link with a checked cursor', () => {
  it('pages 55 decisions as 50 and 5; a changed cursor, or one of another account or section, is a 400; an account not received a 404', async () => {
    const paged = await chain.trackAccount({ label: 'desk-paged', delegates: ['k'] });
    const other = await chain.trackAccount({ label: 'desk-paged-other', delegates: ['k'] });
    const at = Date.now() - 55 * 60_000;
    const put = (account: TrackedSimAccount, i: number) =>
      chain.repos.decisions.put({
        decisionId: `paged-${account.address.slice(2, 10)}-${String(i).padStart(3, '0')}`,
        account: account.address,
        rule: 'kill-switch',
        reason: `paged decision ${String(i).padStart(3, '0')}`,
        evidence: {},
        delegates: [account.delegates[0]!.address],
        createdAt: at + i * 60_000,
        dryRun: true,
      });
    for (const account of [paged, other]) await Promise.all(Array.from({ length: 55 }, (_, i) => put(account, i)));

    const client = deskClient(desk);
    await signIn(desk, client, OPS);
    const first = await client.get(`/desk/accounts/${paged.address}`);
    expect(first.status).toBe(200);
    expect(first.body).not.toContain('Only the newest');
    const newest = decisionNumbers(first.body);
    expect(newest).toHaveLength(50);
    expect(newest[0]).toBe('054');
    expect(newest[49]).toBe('005');
    const older = olderDecisions(first.body);
    expect(older).not.toBeNull();
    const cursor = new URL(older!).searchParams.get('decisions')!;
    // The position is inside the signed cursor: no raw key of the table in the link.
    expect(older).not.toContain('tokenId');
    expect(older).not.toContain('decision%23');

    const second = await client.get(older!);
    expect(second.status).toBe(200);
    expect(decisionNumbers(second.body)).toEqual(['004', '003', '002', '001', '000']);
    expect(olderDecisions(second.body)).toBeNull();

    const [position, mac] = cursor.split('.');
    // The same signature over a moved position: one decision further (the next page would start elsewhere).
    const moved = `${Buffer.from(
      Buffer.from(position!, 'base64url')
        .toString('utf8')
        .replace(/\d{3}$/, '003'),
      'utf8',
    ).toString('base64url')}.${mac}`;
    const tries = [
      `/desk/accounts/${paged.address}?decisions=${encodeURIComponent(changedCursor(cursor))}`,
      `/desk/accounts/${paged.address}?decisions=${encodeURIComponent(moved)}`,
      // The same cursor on another account, and as another section's.
      `/desk/accounts/${other.address}?decisions=${encodeURIComponent(cursor)}`,
      `/desk/accounts/${paged.address}?alerts=${encodeURIComponent(cursor)}`,
      `/desk/accounts/${paged.address}?decisions=not-a-cursor`,
    ];
    await expectCursorsRefused(client, tries, (body) => decisionNumbers(body).length > 0);

    // A viewer who receives `other` only: `paged` is not found, with or without the cursor.
    const viewer = deskClient(desk);
    await signIn(desk, viewer, other.emails[0]!);
    for (const path of [`/desk/accounts/${paged.address}`, older!]) {
      const answer = await viewer.get(path);
      expect(answer.status, path).toBe(404);
      expect(decisionNumbers(answer.body), path).toEqual([]);
    }
  });
});

describe("the keys section's Revoke and Revoke all buttons: today's confirmation pages, through a link minted for the viewer", () => {
  it('a Revoke button leads to the confirmation page; a GET changes nothing; the link works once', async () => {
    const account = await chain.trackAccount({ label: 'desk-revoke', delegates: ['bot', 'mm'] });
    const [bot, mm] = account.delegates;
    const client = deskClient(desk);
    await signIn(desk, client, account.emails[0]!);
    const page = await client.get(`/desk/accounts/${account.address}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/>Revoke<span class="visually-hidden"> bot</);
    expect(page.body).toMatch(/>Revoke all<span class="visually-hidden">/);

    // Nothing on GET: the button's address answers 404 and mints nothing.
    expect((await client.get(`/desk/accounts/${account.address}/revoke?delegate=${bot!.address}`)).status).toBe(404);
    expect((await client.get(`/desk/accounts/${account.address}/revoke-all`)).status).toBe(404);

    const fields = hiddenFields(page.body, '/revoke');
    expect(fields['delegate']).toBeDefined();
    const minted = await client.post(`/desk/accounts/${account.address}/revoke`, { ...fields, delegate: bot!.address });
    expect(minted.status).toBe(303);
    const link = minted.headers.get('location')!;
    expect(link.startsWith(`${chain.server.url}/revoke?token=`)).toBe(true);

    // The confirmation page, opened (twice) as a browser follows the redirect: nothing changes.
    for (let i = 0; i < 2; i++) {
      const confirm = await getPage(link);
      expect(confirm.status).toBe(200);
      expect(titleOf(confirm)).toBe('Revoke this API key?');
    }
    expect((await chain.chainState(account.address)).delegates).toHaveLength(2);

    const form = formOf(await getPage(link));
    const done = await submitForm(form.action, form.fields);
    expect(titleOf(done)).toBe('API key revoked');
    expect((await chain.chainState(account.address)).delegates.map((d) => d.toLowerCase())).toEqual([mm!.address.toLowerCase()]);
    const replay = await submitForm(form.action, form.fields);
    expect(replay.status).toBe(409);
    expect(titleOf(replay)).toBe('This link was used: the API key was revoked');
  });

  it('Revoke all leads to the revoke-all confirmation page, which changes nothing until its button', async () => {
    const account = await chain.trackAccount({ label: 'desk-revoke-all', delegates: ['a', 'b'] });
    const client = deskClient(desk);
    await signIn(desk, client, account.emails[0]!);
    const page = await client.get(`/desk/accounts/${account.address}`);
    const minted = await client.post(`/desk/accounts/${account.address}/revoke-all`, hiddenFields(page.body, '/revoke-all'));
    expect(minted.status).toBe(303);
    const link = minted.headers.get('location')!;
    expect(link.startsWith(`${chain.server.url}/revoke-all?token=`)).toBe(true);
    const confirm = await getPage(link);
    expect(confirm.status).toBe(200);
    expect(titleOf(confirm)).toBe('Revoke all 2 API keys?');
    expect((await chain.chainState(account.address)).delegates).toHaveLength(2);
  });

  it('answers 404 for an account the viewer does not receive, 403 without the anti-CSRF value or from another origin, 400 for a malformed key; no link in any', async () => {
    const mine = await chain.trackAccount({ label: 'desk-mine', delegates: ['k'] });
    const theirs = await chain.trackAccount({ label: 'desk-theirs', delegates: ['k'] });
    const client = deskClient(desk);
    await signIn(desk, client, mine.emails[0]!);
    const page = await client.get(`/desk/accounts/${mine.address}`);
    const fields = hiddenFields(page.body, '/revoke');
    for (const path of ['revoke', 'revoke-all']) {
      const other = await client.post(`/desk/accounts/${theirs.address}/${path}`, { ...fields, delegate: theirs.delegates[0]!.address });
      expect(other.status, path).toBe(404);
      expect(other.headers.get('location'), path).toBeNull();
    }
    const noCsrf = await client.post(`/desk/accounts/${mine.address}/revoke`, { delegate: mine.delegates[0]!.address });
    expect(noCsrf.status).toBe(403);
    const crossSite = await client.post(`/desk/accounts/${mine.address}/revoke`, fields, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const malformed = await client.post(`/desk/accounts/${mine.address}/revoke`, { ...fields, delegate: 'not-an-address' });
    expect(malformed.status).toBe(400);
    for (const answer of [noCsrf, crossSite, malformed]) expect(answer.headers.get('location')).toBeNull();
    expect((await chain.chainState(mine.address)).delegates).toHaveLength(1);
  });

  it("finds an account by its address in any case, as the CLI does: the page redirects to the checksummed path, the chart data and a Revoke answer for it; a wrong checksum or another viewer's account is 404", async () => {
    const mine = await chain.trackAccount({ label: 'desk-case', delegates: ['k'] });
    const theirs = await chain.trackAccount({ label: 'desk-case-theirs', delegates: ['k'] });
    const client = deskClient(desk);
    await signIn(desk, client, mine.emails[0]!);
    const lower = mine.address.toLowerCase();
    const page = await client.get(`/desk/accounts/${lower}?window=7d`);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${desk.server.url}/desk/accounts/${mine.address}?window=7d`);
    const shown = await client.get(page.headers.get('location')!);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain(`<code>${mine.address}</code>`);
    const series = await client.get(`/desk/api/accounts/${lower}/series?window=1d`);
    expect(series.status).toBe(200);
    expect(JSON.parse(series.body)).toMatchObject({ account: mine.address });
    const revoke = await client.post(`/desk/accounts/${lower}/revoke`, { ...hiddenFields(shown.body, '/revoke'), delegate: mine.delegates[0]!.address });
    expect(revoke.status).toBe(303);
    expect(revoke.headers.get('location')).toContain('/revoke?token=');
    // A mixed case that is not the checksum is a typo, not this account; another viewer's account stays hidden in any case.
    const wrongChecksum = `0x${mine.address.slice(2).replace(/[a-f]/, (c) => c.toUpperCase())}`;
    expect(wrongChecksum.toLowerCase()).toBe(lower);
    expect(wrongChecksum).not.toBe(mine.address);
    for (const path of [
      `/desk/accounts/${wrongChecksum}`,
      `/desk/accounts/${theirs.address.toLowerCase()}`,
      `/desk/api/accounts/${theirs.address.toLowerCase()}/series`,
    ])
      expect((await client.get(path)).status, path).toBe(404);
  });
});
