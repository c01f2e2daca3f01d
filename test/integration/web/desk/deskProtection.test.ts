import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import { killSwitchStateText } from '../../../../functions/domain/killSwitchStateText';
import { createDecisionWorkerHandler } from '../../../../functions/handlers/decision-worker';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import { protectionStatus } from '../../../../functions/services/status/protectionStatus';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { escapeHtml } from '../../../../functions/web/html';
import { signerCallOf } from '../../../../functions/web/signerCallOf';
import { InProcessRevocationSigner } from '../../../../local/inProcessRevocationSigner';
import { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { deskClient, signIn, startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import { startRevocationWorld, worldProtection, type RevocationWorld, type TrackedSimAccount } from '../../../support/revocation/revocationWorld';
import { testTables } from '../../../support/testTables';

const tables = testTables();
let chain: RevocationWorld;
let desk: DeskWorld;
let queue: InProcessQueue<DecisionJob>;
let protect: ProtectiveRevoker;
const OPS = `ops-protection-${Math.random().toString(36).slice(2, 8)}@example.com`;

beforeAll(async () => {
  chain = await startRevocationWorld(tables);
  desk = await startDeskWorld(tables, { operatorEmail: OPS, repos: chain.repos });
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
  await chain?.close();
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
    await chain.repos.accounts.updateSettings(fired.address, { killSwitch: 30 });
    const reason = 'kill-switch: drawdown 31.20% now, 1-minute re-read 30.40% ≥ 30% at 2030-01-07T09:00:00.000Z';
    const outcome = await protect(killSwitchRequest(fired, reason, { drawdownPct: 31.2, rereadPct: 30.4, levelPct: 30, equity: 6880.5 }));
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
    for (const [name, value] of [
      ['drawdownPct', '31.2'],
      ['rereadPct', '30.4'],
      ['levelPct', '30'],
      ['equity', '6880.5'],
    ])
      expect(page.body).toContain(`<dt>${name}</dt><dd>${value}</dd>`);
    expect(page.body).toContain(`<code>${fired.delegates[0]!.address}</code> (bot): revoked`);
    expect(page.body).not.toContain(escapeHtml(dryReason));

    const dryPage = await client.get(`/desk/accounts/${dry.address}`);
    expect(dryPage.body).toContain(escapeHtml(dryReason));
    expect(dryPage.body).toContain('dry run: nothing revoked');
    expect(dryPage.body).toContain(`<code>${dry.delegates[0]!.address}</code>: not revoked (dry run)`);
    expect(dryPage.body).toContain('<dt>rereadPct</dt><dd>25.5</dd>');
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

describe('the decisions index', () => {
  it("lists one account's decisions newest first, never another's", async () => {
    const a = await chain.trackAccount({ label: 'idx-a', delegates: ['k1'] });
    const b = await chain.trackAccount({ label: 'idx-b', delegates: ['k2'] });
    const base = { rule: 'kill-switch' as const, reason: 'test', evidence: {}, dryRun: true };
    await chain.repos.decisions.put({
      ...base,
      decisionId: 'idx-a-older-000001',
      account: a.address,
      delegates: [a.delegates[0]!.address],
      createdAt: Date.now() - 60_000,
    });
    await chain.repos.decisions.put({
      ...base,
      decisionId: 'idx-a-newer-000002',
      account: a.address,
      delegates: [a.delegates[0]!.address],
      createdAt: Date.now(),
    });
    await chain.repos.decisions.put({
      ...base,
      decisionId: 'idx-b-other-000003',
      account: b.address,
      delegates: [b.delegates[0]!.address],
      createdAt: Date.now(),
    });
    expect((await chain.repos.decisions.listForAccount(a.address, 10)).map((d) => d.decisionId)).toEqual(['idx-a-newer-000002', 'idx-a-older-000001']);
    expect((await chain.repos.decisions.listForAccount(a.address, 1)).map((d) => d.decisionId)).toEqual(['idx-a-newer-000002']);
  });
});
