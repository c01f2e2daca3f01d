import { beforeAll, describe, expect, it } from 'vitest';
import type { ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import { checksumAddress } from '../../../../functions/domain/address';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import type { DelegateWatchJob } from '../../../../functions/messages/collectJob';
import type { NotifyMessage } from '../../../../functions/messages/notifyMessage';
import { watchDelegateBatch } from '../../../../functions/services/collect/watchDelegateBatch';
import { takeKnownDelegates } from '../../../../functions/services/knownKeys/takeKnownDelegates';
import type { FileProtectionSwitch } from '../../../../functions/store/fileProtectionSwitch';
import type { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { startDecisionChain } from '../../../support/collect/decisionChain';
import { harnessCollectDeps } from '../../../support/collect/harnessCollectDeps';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Unknown-key revocation end to end: the delegate watch asks the real protection service, which
 * queues decision units; the real signing handler re-checks each decision and submits
 * `RemoveDelegateManager` to the chain simulator with the owner's key. DynamoDB Local, the
 * simulator over HTTP; the clocks are virtual and move together.
 */
describe('unknown keys revoked on chain (watch → protection service → queue → signer)', () => {
  const h = pipelineHarness();
  let protection: FileProtectionSwitch;
  let decisions: InProcessQueue<DecisionJob>;
  let protect: ProtectiveRevoker;
  const signerEnv: Record<string, string | undefined> = {};
  const notified: NotifyMessage[] = [];
  let keys = 0;

  beforeAll(async () => {
    await h.advance(10 * MINUTE);
    ({ protection, decisions, protect } = await startDecisionChain(h, { signerEnv, notified }));
  });

  const deps = () => harnessCollectDeps(h, notified, protect);

  /** `minutes` dispatch runs a minute apart; each watch job runs at once, then (after `beforeSigning`) the decision queue is delivered. */
  async function watchFor(minutes: number, beforeSigning: () => Promise<void> = async () => undefined): Promise<void> {
    for (let m = 0; m < minutes; m++) {
      await h.advance(MINUTE);
      const queued = await h.dispatch();
      for (const job of queued.filter((q): q is DelegateWatchJob => 'kind' in q)) await watchDelegateBatch(deps(), job);
      await beforeSigning();
      await decisions.drain();
    }
  }

  /** An account with one bot key and its owner key available to the signer, armed `--revoke-unknown api-keys`, past its first poll and watch. */
  async function armedAccount(label: string) {
    const created = (await h.control.createAccount({ label, profile: CALM } as never)) as { address: string; privateKey: string };
    const variable = `UNKNOWN_KEYS_OWNER_${++keys}`;
    signerEnv[variable] = created.privateKey;
    const bot = await h.control.addDelegate(created.address, { name: 'desk bot', expiresInMs: 48 * HOUR });
    await h.track(label, { interval: '1d', revokeUnknown: 'api-keys', signer: `env:${variable}` }, undefined, created);
    await takeKnownDelegates(
      { chain: h.chain, accounts: h.repos.accounts, delegates: h.repos.delegates, knownDelegates: h.repos.knownDelegates },
      created.address,
      h.now(),
    );
    await h.pipeline.runCycle({ kind: 'due' });
    await watchFor(5);
    return { address: created.address, bot: bot.delegate.address };
  }

  const listed = async (address: string) => (await h.control.account(address)).delegates.map((d) => d.address);
  const noticeOf = (address: string, delegate: string) =>
    notified.find(
      (n): n is Extract<NotifyMessage, { kind: 'new-delegate' }> => n.kind === 'new-delegate' && n.account === address && n.delegate.address === delegate,
    );

  it('with protection on, an unknown API key is revoked on chain within the watch cadence; the known key stays; an announced key is kept', async () => {
    await protection.write('on');
    const { address, bot } = await armedAccount('intruded');
    const intruder = await h.control.addDelegate(address, { name: 'not ours', expiresInMs: 48 * HOUR });
    await watchFor(5);
    expect(await listed(address)).toEqual([bot]);
    const audit = await h.repos.audit.listForAccount(address, 20);
    expect(audit.some((r) => r.kind === 'intent' && r.delegate === intruder.delegate.address)).toBe(true);
    expect(noticeOf(address, intruder.delegate.address)?.protection).toMatchObject({
      verdict: 'unknown',
      action: { kind: 'requested', outcome: { kind: 'queued' } },
    });

    const key = '0x00000000000000000000000000000000000b0b01';
    await h.repos.knownDelegates.announce(address, { delegate: checksumAddress(key), announcedAt: h.now(), expiresAt: h.now() + HOUR });
    const expected = await h.control.addDelegate(address, { address: key, name: 'new bot', expiresInMs: 48 * HOUR });
    await watchFor(5);
    expect(await listed(address)).toEqual(expect.arrayContaining([bot, expected.delegate.address]));
    expect(await listed(address)).toHaveLength(2);
  }, 180_000);

  it('an unknown key whose revocation the signer refused is told, and judged again at the next check, which revokes it', async () => {
    await protection.write('on');
    const { address, bot } = await armedAccount('refused-once');
    const intruder = await h.control.addDelegate(address, { name: 'not ours', expiresInMs: 48 * HOUR });
    // Protection is turned off between the decision and its signing: the signer refuses it.
    let switched = false;
    await watchFor(5, async () => {
      if (switched || !notified.some((n) => n.kind === 'new-delegate' && n.account === address)) return;
      switched = true;
      await protection.write('off');
    });
    expect(switched).toBe(true);
    expect(await listed(address)).toEqual([bot, intruder.delegate.address]);
    const refused = notified.filter((n) => n.kind === 'decision-result' && n.account === address);
    expect(refused[0]).toMatchObject({ result: { units: [{ status: 'refused', refusal: 'protection-off' }], judgedAgainAt: expect.any(Number) } });

    await protection.write('on');
    // The next delegate check (every 5 minutes here) judges it again.
    await watchFor(5);
    expect(await listed(address)).toEqual([bot]);
    const again = notified.filter((n) => n.kind === 'new-delegate' && n.account === address && n.eventId.includes(':judged-again:'));
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ protection: { verdict: 'unknown', action: { kind: 'requested', outcome: { kind: 'queued' } } } });
    const results = new Map(notified.filter((n) => n.kind === 'decision-result' && n.account === address).map((n) => [n.eventId, n]));
    expect([...results.values()].map((n) => n.kind === 'decision-result' && n.result.units[0]?.status)).toEqual(['refused', 'revoked']);
    const seen = (await h.repos.knownDelegates.read(address)).unknownSeen.find((u) => u.delegate === intruder.delegate.address);
    expect(seen).toMatchObject({ judgedAgain: true });
  }, 180_000);

  it('with protection off stage-wide nothing is revoked, and the notice says so', async () => {
    await protection.write('off');
    const { address, bot } = await armedAccount('switched-off');
    const intruder = await h.control.addDelegate(address, { name: 'not ours', expiresInMs: 48 * HOUR });
    await watchFor(5);
    expect(await listed(address)).toEqual([bot, intruder.delegate.address]);
    expect(noticeOf(address, intruder.delegate.address)?.protection).toMatchObject({ action: { kind: 'requested', outcome: { kind: 'protection-off' } } });
  }, 180_000);
});
