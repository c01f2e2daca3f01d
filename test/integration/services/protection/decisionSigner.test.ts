import { randomUUID } from 'node:crypto';
import { verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { buildRemoveDelegateManager } from '../../../../functions/chain/transactionBuilders';
import type { ProtectiveDecision } from '../../../../functions/domain/protectiveDecision';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import { lambdaContext } from '../../../../local/lambdaContext';
import { DECISION_MAX_AGE_MS, revocationWorld, type RevocationWorld, type TrackedSimAccount } from '../../../support/revocation/revocationWorld';

const world = revocationWorld();

const REASON = 'kill-switch: drawdown 31.2% ≥ 30% at 2026-11-25T08:00:00.000Z';

/** An armed account and its decision, written as the protection service does; the switch on. The signer counts caps and the breaker itself. */
async function decided(options: { dryRun?: boolean; createdAt?: number } = {}): Promise<{ account: TrackedSimAccount; decision: ProtectiveDecision }> {
  const account = await world.trackAccount({ label: `decided-${randomUUID().slice(0, 6)}`, delegates: ['bot-a', 'bot-b'] });
  await world.repos.accounts.updateSettings(account.address, { killSwitch: 30 });
  const decision: ProtectiveDecision = {
    decisionId: `ks-${randomUUID()}`,
    account: account.address,
    rule: 'kill-switch',
    reason: REASON,
    evidence: { drawdownPct: 31.2, levelPct: 30 },
    delegates: account.delegates.map((d) => d.address),
    createdAt: options.createdAt ?? Date.now(),
    dryRun: options.dryRun ?? false,
  };
  expect(await world.repos.decisions.put(decision)).toEqual({ kind: 'written' });
  expect(await world.repos.decisions.put({ ...decision, reason: 'rewritten' })).toEqual({ kind: 'exists' });
  await world.protection.write('on');
  return { account, decision };
}

/** Stores a decision of `rule` to revoke `key` of `account` (made now, not a dry run; its id starts with `id`) and turns the stage's switch on. */
async function keyDecision(
  account: TrackedSimAccount,
  key: `0x${string}`,
  rule: ProtectiveDecision['rule'],
  reason: string,
  id: string,
): Promise<ProtectiveDecision> {
  const decision: ProtectiveDecision = {
    decisionId: `${id}-${randomUUID()}`,
    account: account.address,
    rule,
    reason,
    evidence: { delegate: key },
    delegates: [key],
    createdAt: Date.now(),
    dryRun: false,
  };
  await world.repos.decisions.put(decision);
  await world.protection.write('on');
  return decision;
}

async function sign(account: TrackedSimAccount, delegate: `0x${string}`, decisionId: string) {
  return createSignRevocationHandler(world.signDeps)({ account: account.address, delegate, decisionId }, lambdaContext('sign-revocation'));
}

async function listed(account: string): Promise<string[]> {
  return (await world.control.account(account)).delegates.map((d) => d.address);
}

/** Signs `decisionId` for `delegate`, which the signer must refuse with nothing sent (the key still listed, the nonce unused); returns the audit record it wrote. */
async function refusedUnsent(account: TrackedSimAccount, delegate: `0x${string}`, decisionId: string) {
  expect(await sign(account, delegate, decisionId)).toEqual({ kind: 'not-authorized', sent: false });
  expect(await listed(account.address)).toContain(delegate);
  expect((await world.control.account(account.address)).nonce).toBe(0);
  const [audit] = await world.repos.audit.listForAccount(account.address, 1);
  return audit;
}

// Before the refusals below: their breaker case leaves the stage's breaker open for an hour.
describe('the signer and web sessions: it re-reads the delegate and revokes a web session only where the rule allows it', () => {
  /** An account with a web session the chain lists (`isWebClient`), a decision of `rule` naming it, counted, the switch on. */
  async function webDecision(rule: ProtectiveDecision['rule'], settings: Parameters<RevocationWorld['repos']['accounts']['updateSettings']>[1]) {
    const account = await world.trackAccount({ label: `web-${randomUUID().slice(0, 6)}`, delegates: [] });
    const { delegate } = await world.control.addDelegate(account.address, { name: 'browser', isWebClient: true });
    const web = delegate.address as `0x${string}`;
    await world.repos.accounts.updateSettings(account.address, settings);
    const decision = await keyDecision(account, web, rule, rule === 'kill-switch' ? REASON : 'unknown delegate', 'web');
    return { account, web, decision };
  }

  const refused: { name: string; rule: ProtectiveDecision['rule']; settings: Parameters<typeof webDecision>[1]; reason: RegExp }[] = [
    {
      name: 'an unknown-key decision under api-keys',
      rule: 'unknown-delegate',
      settings: { revokeUnknown: 'api-keys' },
      reason: /web session and the account's unknown-key mode is api-keys/,
    },
    {
      name: 'a kill-switch decision that keeps web sessions',
      rule: 'kill-switch',
      settings: { killSwitch: 30, killSwitchWebSessions: 'keep' },
      reason: /web session and the kill switch keeps web sessions/,
    },
  ];
  for (const { name, rule, settings, reason } of refused) {
    it(`refuses ${name}, audits why, and sends nothing`, async () => {
      const { account, web, decision } = await webDecision(rule, settings);
      const audit = await refusedUnsent(account, web, decision.decisionId);
      expect(audit).toMatchObject({
        outcome: 'not-authorized',
        actor: `decision:${decision.decisionId}`,
        delegate: web,
        message: expect.stringMatching(reason),
        reason: decision.reason,
      });
    });
  }

  it('a decision written under "all" is refused once the account went back to api-keys before signing', async () => {
    const { account, web, decision } = await webDecision('unknown-delegate', { revokeUnknown: 'all' });
    await world.repos.accounts.updateSettings(account.address, { revokeUnknown: 'api-keys' });
    expect(await sign(account, web, decision.decisionId)).toEqual({ kind: 'not-authorized', sent: false });
    expect(await listed(account.address)).toContain(web);
  });

  const allowed: { name: string; rule: ProtectiveDecision['rule']; settings: Parameters<typeof webDecision>[1] }[] = [
    { name: 'an unknown-key decision under all', rule: 'unknown-delegate', settings: { revokeUnknown: 'all' } },
    { name: 'a kill-switch decision with web sessions set to revoke', rule: 'kill-switch', settings: { killSwitch: 30, killSwitchWebSessions: 'revoke' } },
  ];
  for (const { name, rule, settings } of allowed) {
    it(`revokes a web session for ${name}`, async () => {
      const { account, web, decision } = await webDecision(rule, settings);
      expect(await sign(account, web, decision.decisionId)).toMatchObject({ kind: 'revoked', sent: true });
      expect(await listed(account.address)).not.toContain(web);
    });
  }
});

describe('the signer and automatic actions: it signs only for a decision that still holds', () => {
  it('signs a decision that holds, once per delegate, audits the reason, and the signature verifies with ethers', async () => {
    const { account, decision } = await decided();
    const [a, b] = account.delegates;
    expect(await sign(account, a!.address, decision.decisionId)).toMatchObject({ kind: 'revoked', sent: true });
    // A redelivery is answered from the delegate's recorded result: nothing is signed again.
    expect(await sign(account, a!.address, decision.decisionId)).toMatchObject({ kind: 'revoked', sent: true });
    expect((await world.control.account(account.address)).nonce).toBe(1);
    expect(await listed(account.address)).toEqual([b!.address]);
    const intent = (await world.repos.audit.listForAccount(account.address, 10)).find((r) => r.kind === 'intent');
    expect(intent).toMatchObject({ reason: REASON, actor: `decision:${decision.decisionId}`, delegate: a!.address });
    const data = buildRemoveDelegateManager({ sender: account.address, manager: a!.address, nonce: intent?.nonce ?? -1 });
    const bytes = Buffer.from(JSON.stringify({ sender: data.sender, instruction: data.instruction, nonce: data.nonce }), 'utf8');
    expect(verifyMessage(bytes, intent?.txSignature ?? '')).toBe(account.address);
  });

  it("refuses an unknown-key decision for a key of the account's known set (it read the set and never used it), and sends nothing", async () => {
    const account = await world.trackAccount({ label: `known-${randomUUID().slice(0, 6)}`, delegates: ['baseline-bot'] });
    await world.repos.accounts.updateSettings(account.address, { revokeUnknown: 'api-keys' });
    const key = account.delegates[0]!.address;
    await world.repos.knownDelegates.recordKeys(account.address, { known: [key], source: 'baseline', baselineAt: Date.now(), at: Date.now() });
    const decision = await keyDecision(account, key, 'unknown-delegate', 'unknown delegate', 'known');
    expect(await sign(account, key, decision.decisionId)).toEqual({ kind: 'not-authorized', sent: false });
    expect(await listed(account.address)).toEqual([key]);
    expect((await world.control.account(account.address)).nonce).toBe(0);
    const [audit] = await world.repos.audit.listForAccount(account.address, 1);
    expect(audit).toMatchObject({ outcome: 'not-authorized', message: expect.stringMatching(/one of the account's known keys/) });
  });

  const refusals: {
    name: string;
    reason: RegExp;
    arrange: (account: TrackedSimAccount, decision: ProtectiveDecision) => Promise<void>;
    options?: Parameters<typeof decided>[0];
  }[] = [
    { name: 'the switch turned off', reason: /off stage-wide/, arrange: () => world.protection.write('off') },
    {
      name: 'the account disarmed',
      reason: /no longer armed/,
      arrange: async (account) => void (await world.repos.accounts.updateSettings(account.address, { killSwitch: null })),
    },
    {
      name: 'the account put in dry run',
      reason: /dry run/,
      arrange: async (account) => void (await world.repos.accounts.updateSettings(account.address, { killSwitchDryRun: true })),
    },
    {
      name: 'the key kept since',
      reason: /kept/,
      arrange: async (account) => void (await world.repos.accounts.updateSettings(account.address, { keepDelegates: [account.delegates[0]!.address] })),
    },
    {
      name: 'a decision too old',
      reason: /could not be signed within 5 minutes \(the decision is \d+ s old\)/,
      arrange: () => Promise.resolve(),
      options: { createdAt: Date.now() - DECISION_MAX_AGE_MS - 60_000 },
    },
    { name: 'a dry-run decision', reason: /is a dry run/, arrange: () => Promise.resolve(), options: { dryRun: true } },
    {
      name: "a decision past the account's cap (another firing signed within the day)",
      reason: /cap was reached: 1 kill-switch firing per 24 hours/,
      arrange: async (account) => {
        const slot = { key: 'an-earlier-firing', decisionId: 'an-earlier-firing' };
        expect(await world.repos.protectionLedger.reserveCap('kill-switch', account.address, slot, Date.now() - 60_000)).toEqual({ kind: 'reserved' });
        await world.repos.protectionLedger.settleCap('kill-switch', account.address, slot.key, true);
      },
    },
    {
      name: 'the breaker open',
      reason: /breaker was open: \d+ accounts fired kill-switch within an hour/,
      arrange: async () => {
        for (let i = 0; i < 6; i++)
          await world.repos.protectionLedger.countFiring(
            'kill-switch',
            { decisionId: `other-${i}`, account: `0x${String(i + 1).padStart(40, '0')}`, at: Date.now() },
            Date.now(),
            5,
          );
      },
    },
  ];
  for (const { name, reason, arrange, options } of refusals) {
    it(`refuses ${name}, audits why, and sends nothing`, async () => {
      const { account, decision } = await decided(options);
      await arrange(account, decision);
      const delegate = account.delegates[0]!.address;
      const audit = await refusedUnsent(account, delegate, decision.decisionId);
      expect(audit).toMatchObject({
        outcome: 'not-authorized',
        actor: `decision:${decision.decisionId}`,
        message: expect.stringMatching(reason),
        reason: REASON,
      });
    });
  }
});
