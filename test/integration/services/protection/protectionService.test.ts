import { randomUUID } from 'node:crypto';
import { verifyMessage } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRemoveDelegateManager } from '../../../../functions/chain/transactionBuilders';
import type { ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import { createDecisionWorkerHandler } from '../../../../functions/handlers/decision-worker';
import { protectionService } from '../../../../functions/services/protection/protect';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import type { AccountPatch } from '../../../../functions/store/accountItem';
import { signerCallOf } from '../../../../functions/web/signerCallOf';
import { InProcessRevocationSigner } from '../../../../local/inProcessRevocationSigner';
import { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { testTables } from '../../../support/testTables';
import { startRevocationWorld, type RevocationWorld, type TrackedSimAccount } from '../../../support/revocation/revocationWorld';

const tables = testTables();
let world: RevocationWorld;
let queue: InProcessQueue<DecisionJob>;
let protect: ProtectiveRevoker;

beforeAll(async () => {
  world = await startRevocationWorld(tables);
  const signer = new InProcessRevocationSigner(createSignRevocationHandler(world.signDeps));
  queue = new InProcessQueue<DecisionJob>({
    name: 'decisions',
    consumer: createDecisionWorkerHandler({ sign: signerCallOf(signer), log: silentLog, counters: memoryCounters() }),
    batchSize: 1,
  });
  protect = protectionService({
    protection: world.protection,
    accounts: world.repos.accounts,
    knownDelegates: world.repos.knownDelegates,
    decisions: world.repos.decisions,
    ledger: world.repos.protectionLedger,
    queue,
    breakerAccounts: 5,
    log: silentLog,
  });
});
afterAll(async () => {
  await world?.close();
});

async function armed(patch: AccountPatch, delegates = ['bot-a', 'bot-b', 'web']): Promise<TrackedSimAccount> {
  const account = await world.trackAccount({ label: `armed-${randomUUID().slice(0, 6)}`, delegates });
  await world.repos.accounts.updateSettings(account.address, patch);
  return account;
}

function request(account: TrackedSimAccount): ProtectiveActionRequest {
  return {
    account: account.address,
    rule: 'kill-switch',
    reason: 'kill-switch: drawdown 31.0% ≥ 30% at 2026-11-25T08:00:00.000Z',
    delegates: account.delegates.map((d) => d.address),
    evidence: { drawdownPct: 31, levelPct: 30 },
    now: Date.now(),
  };
}

async function listed(account: string): Promise<string[]> {
  return (await world.control.account(account)).delegates.map((d) => d.address);
}

describe('the protection service', () => {
  it('does nothing while the switch is off (a new stage), nor for an account not armed', async () => {
    const account = await armed({ killSwitch: 30 });
    expect(await protect(request(account))).toEqual({ kind: 'protection-off' });
    await world.protection.write('on');
    const unarmed = await armed({});
    expect(await protect(request(unarmed))).toEqual({ kind: 'not-armed' });
    await queue.drain();
    expect(await listed(account.address)).toHaveLength(3);
    expect(await listed(unarmed.address)).toHaveLength(3);
  });

  it('revokes every delegate but the kept ones, one at a time in nonce order, once; a second firing within the day is capped', async () => {
    await world.protection.write('on');
    const first = await armed({ killSwitch: 30 });
    const kept = first.delegates[2]!.address;
    await world.repos.accounts.updateSettings(first.address, { keepDelegates: [kept] });
    const outcome = await protect(request(first));
    expect(outcome).toMatchObject({ kind: 'queued', delegates: [first.delegates[0]!.address, first.delegates[1]!.address] });
    await queue.drain();
    expect(await listed(first.address)).toEqual([kept]);
    const intents = (await world.repos.audit.listForAccount(first.address, 20)).filter((r) => r.kind === 'intent').reverse();
    expect(intents.map((i) => [i.delegate, i.nonce])).toEqual([
      [first.delegates[0]!.address, 1],
      [first.delegates[1]!.address, 2],
    ]);
    for (const intent of intents) {
      const data = buildRemoveDelegateManager({ sender: first.address, manager: intent.delegate as `0x${string}`, nonce: intent.nonce ?? -1 });
      const bytes = Buffer.from(JSON.stringify({ sender: data.sender, instruction: data.instruction, nonce: data.nonce }), 'utf8');
      expect(verifyMessage(bytes, intent.txSignature ?? '')).toBe(first.address);
    }
    // A redelivered unit signs nothing more.
    if (outcome.kind !== 'queued') throw new Error('not queued');
    await queue.send([
      { id: 'again', body: { kind: 'decision-unit', account: first.address, delegate: first.delegates[0]!.address, decisionId: outcome.decisionId } },
    ]);
    await queue.drain();
    expect((await world.control.account(first.address)).nonce).toBe(2);
    expect(await protect(request(first))).toEqual({ kind: 'capped', cap: '1 kill-switch firing per 24 hours' });
  });

  it('records a dry run and revokes nothing', async () => {
    await world.protection.write('on');
    const account = await armed({ killSwitch: 30, killSwitchDryRun: true });
    const outcome = await protect(request(account));
    expect(outcome).toMatchObject({ kind: 'dry-run', delegates: account.delegates.map((d) => d.address) });
    await queue.drain();
    expect(await listed(account.address)).toHaveLength(3);
    if (outcome.kind === 'dry-run')
      expect(await world.repos.decisions.get(outcome.decisionId)).toMatchObject({ dryRun: true, reason: request(account).reason });
  });

  it('opens the breaker when more than 5 accounts fire within an hour: the sixth acts on none', async () => {
    await world.protection.write('on');
    const fired = new Set((await world.repos.protectionLedger.firings(Date.now())).map((f) => f.account)).size;
    const accounts: TrackedSimAccount[] = [];
    for (let i = fired; i < 6; i++) accounts.push(await armed({ killSwitch: 30 }, ['bot']));
    const outcomes = [];
    for (const account of accounts) outcomes.push(await protect(request(account)));
    expect(outcomes.at(-1)).toEqual({ kind: 'breaker-open', firedAccounts: 6 });
    expect(accounts.length).toBeGreaterThan(1);
    expect(outcomes.slice(0, -1).every((o) => o.kind === 'queued')).toBe(true);
    await queue.drain();
    // The signer re-checks the breaker too: the queued units of the hour are refused.
    for (const account of accounts) expect(await listed(account.address)).toHaveLength(1);
  });
});
