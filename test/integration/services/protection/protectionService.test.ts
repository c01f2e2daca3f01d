import { randomUUID } from 'node:crypto';
import { verifyMessage } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRemoveDelegateManager } from '../../../../functions/chain/transactionBuilders';
import type { ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import { MAX_DECISION_DELEGATES } from '../../../../functions/domain/protectiveDecision';
import { createDecisionWorkerHandler } from '../../../../functions/handlers/decision-worker';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import type { AccountPatch } from '../../../../functions/store/accountItem';
import { signerCallOf } from '../../../../functions/web/signerCallOf';
import { InProcessRevocationSigner } from '../../../../local/inProcessRevocationSigner';
import { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { revocationWorld, worldProtection, type TrackedSimAccount } from '../../../support/revocation/revocationWorld';

const world = revocationWorld();
let queue: InProcessQueue<DecisionJob>;
let protect: ProtectiveRevoker;

beforeAll(async () => {
  const signer = new InProcessRevocationSigner(createSignRevocationHandler(world.signDeps));
  queue = new InProcessQueue<DecisionJob>({
    name: 'decisions',
    consumer: createDecisionWorkerHandler({ sign: signerCallOf(signer), log: silentLog, counters: memoryCounters() }),
    batchSize: 1,
  });
  protect = worldProtection(world, queue);
});

async function armed(patch: AccountPatch, delegates = ['bot-a', 'bot-b', 'web']): Promise<TrackedSimAccount> {
  const account = await world.trackAccount({ label: `armed-${randomUUID().slice(0, 6)}`, delegates });
  await world.repos.accounts.updateSettings(account.address, patch);
  return account;
}

function request(account: TrackedSimAccount, at = Date.now()): ProtectiveActionRequest {
  return {
    account: account.address,
    rule: 'kill-switch',
    reason: 'kill-switch: drawdown 31.0% ≥ 30% at 2026-11-25T08:00:00.000Z',
    delegates: account.delegates.map((d) => d.address),
    evidence: { drawdownPct: 31, levelPct: 30 },
    occasion: { at, generation: 0 },
    now: Date.now(),
  };
}

/**
 * The result notices the signer published for `account`'s decisions (after the notify queue is
 * delivered), one per event id: a redelivered unit publishes its decision's result again under the
 * same id, which the notify ledger sends once per recipient.
 */
async function results(account: string) {
  await world.notify.drain();
  const byId = new Map(world.notified.filter((n) => n.kind === 'decision-result' && n.account === account).map((n) => [n.eventId, n]));
  return [...byId.values()];
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

  it('revokes every delegate but the kept ones, one at a time in nonce order, once; a second firing within the day is refused at signing, capped', async () => {
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
    expect((await results(first.address)).map((r) => r.kind === 'decision-result' && r.result.units.map((u) => u.status))).toEqual([['revoked', 'revoked']]);
    // The cap is counted at signing: the second firing is queued, and the signer refuses it.
    const again = await protect(request(first, Date.now() + 1));
    expect(again).toMatchObject({ kind: 'queued' });
    await queue.drain();
    const told = await results(first.address);
    expect(told).toHaveLength(2);
    expect(told[1]).toMatchObject({
      result: {
        units: [
          { status: 'refused', refusal: 'capped' },
          { status: 'refused', refusal: 'capped' },
        ],
      },
    });
  });

  it('a redelivered collect message (the same occasion) makes no second decision', async () => {
    await world.protection.write('on');
    const account = await armed({ killSwitch: 30 }, ['bot']);
    const at = Date.now();
    const first = await protect(request(account, at));
    const second = await protect(request(account, at));
    expect(second).toEqual(first);
    await queue.drain();
    expect((await world.control.account(account.address)).nonce).toBe(1);
    expect(await results(account.address)).toHaveLength(1);
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

  it(`refuses a decision of more keys than one holds (${MAX_DECISION_DELEGATES}): nothing written or queued, an answer the notice words (the poll no longer fails on it)`, async () => {
    await world.protection.write('on');
    const account = await armed({ killSwitch: 30 });
    const many = Array.from({ length: MAX_DECISION_DELEGATES }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as const);
    const crowded = { ...request(account), delegates: [...request(account).delegates, ...many] };
    const outcome = await protect(crowded);
    expect(outcome).toEqual({ kind: 'capped', cap: '1,000 keys in one automatic decision' });
    await queue.drain();
    expect(await listed(account.address)).toHaveLength(3);
    expect((await world.repos.decisions.pageForAccount(account.address, 10, null)).decisions).toEqual([]);
    // Within the bound, the same account decides as usual.
    expect(await protect({ ...request(account), occasion: { at: Date.now(), generation: 1 } })).toMatchObject({ kind: 'queued' });
    await queue.drain();
  });

  it('opens the breaker at signing when more than 5 accounts fire within an hour: the sixth and later act on none, and each desk is told', async () => {
    await world.protection.write('on');
    const fired = (await world.repos.protectionLedger.breaker('kill-switch', Date.now(), 5)).accounts;
    const accounts: TrackedSimAccount[] = [];
    for (let i = fired; i < 7; i++) accounts.push(await armed({ killSwitch: 30 }, ['bot']));
    for (const account of accounts) expect(await protect(request(account))).toMatchObject({ kind: 'queued' });
    await queue.drain();
    const revoked = [];
    for (const account of accounts) revoked.push((await listed(account.address)).length === 0);
    // Counted in the order the signer signs: the firings up to the limit revoke, the rest are refused.
    expect(revoked.filter(Boolean)).toHaveLength(Math.max(0, 5 - fired));
    for (const [i, account] of accounts.entries()) {
      const told = await results(account.address);
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ result: { units: [{ status: revoked[i] ? 'revoked' : 'refused', refusal: revoked[i] ? null : 'breaker-open' }] } });
    }
  });
});
