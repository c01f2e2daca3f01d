import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtectiveActionRequest, ProtectiveRevoker } from '../../../../functions/domain/protectiveAction';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import type { DecisionJob } from '../../../../functions/messages/decisionJob';
import { createDecisionWorkerHandler } from '../../../../functions/handlers/decision-worker';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { signerCallOf } from '../../../../functions/web/signerCallOf';
import { InProcessRevocationSigner } from '../../../../local/inProcessRevocationSigner';
import { InProcessQueue } from '../../../../local/queue/inProcessQueue';
import { cliRunner } from '../../../support/cli/cliHarness';
import { sesStore } from '../../../support/sesStore';
import { getPage, mailingNotifyConsumer, revocationWorld, titleOf, worldProtection, type TrackedSimAccount } from '../../../support/revocation/revocationWorld';
import { registerDelegateViews } from '../../../support/store/delegateViews';

const MINUTE = 60_000;
const OPERATOR = 'ops-decisions@example.com';
const world = revocationWorld({ notifyConsumer: mailingNotifyConsumer({ operatorEmail: OPERATOR }) });
let queue: InProcessQueue<DecisionJob>;
let protect: ProtectiveRevoker;
/** The signer's and the decision queue's clock: real time plus what a test moves it by (a decision ages without waiting). */
let ahead = 0;
const clock = { now: () => Date.now() + ahead, sleep: async (ms: number) => void (ahead += ms) };
const signerCounters = memoryCounters();

beforeAll(async () => {
  const signer = new InProcessRevocationSigner(createSignRevocationHandler({ ...world.signDeps, now: clock.now, counters: signerCounters }));
  queue = new InProcessQueue<DecisionJob>({
    name: 'decisions',
    consumer: createDecisionWorkerHandler({ sign: signerCallOf(signer), log: silentLog, counters: memoryCounters() }),
    batchSize: 1,
    visibilityTimeoutMs: 2 * MINUTE,
    maxReceiveCount: 10,
    clock,
  });
  protect = worldProtection(world, queue);
  await world.protection.write('on');
});
afterAll(async () => {
  await world.control.resetFaults();
});

function request(account: TrackedSimAccount, rule: ProtectiveActionRequest['rule'], delegates = account.delegates): ProtectiveActionRequest {
  const at = clock.now();
  return {
    account: account.address,
    rule,
    reason: rule === 'kill-switch' ? 'kill-switch: drawdown 31.00% now, 1-minute re-read 30.4% ≥ 30% at 2030-01-07T09:00:00.000Z' : 'unknown delegate',
    delegates: delegates.map((d) => d.address),
    evidence: {},
    occasion: { at, generation: 0 },
    now: at,
  };
}

/**
 * Queues the decision, records what collect keeps (the kill switch's state, or the unknown key's
 * decision), runs `beforeSigning`, delivers its units and a redelivery of each (as a lost answer
 * would), then the notify queue.
 */
async function decideAndDeliver(
  account: TrackedSimAccount,
  rule: ProtectiveActionRequest['rule'],
  beforeSigning: () => Promise<void> = async () => undefined,
  delegates = account.delegates,
) {
  const outcome = await protect(request(account, rule, delegates));
  if (outcome.kind !== 'queued') throw new Error(`not queued: ${outcome.kind}`);
  if (rule === 'kill-switch')
    await world.repos.alerts.compareAndSet(account.address, 'kill-switch', null, { status: 'revoking', at: Date.now(), decisionId: outcome.decisionId });
  else
    await world.repos.knownDelegates.recordKeys(account.address, {
      unknown: [{ key: account.delegates[0]!.address, decisionId: outcome.decisionId }],
      at: Date.now(),
    });
  await beforeSigning();
  await queue.drain();
  for (const delegate of outcome.delegates)
    await queue.send([{ id: 'again', body: { kind: 'decision-unit', account: account.address, delegate, decisionId: outcome.decisionId } }]);
  await queue.drain();
  await world.notify.drain();
}

async function resultMails(account: TrackedSimAccount, to = account.emails[0]!) {
  return (await sesStore({ to })).filter((m) => m.subject.includes('NOT revoked') && m.subject.includes(account.address.slice(0, 6)));
}

const status = (account: TrackedSimAccount) => cliRunner({ SENTINEL_TABLE_PREFIX: world.tables.prefix })('status', account.address);
const total = (name: string) => signerCounters.totals.get(name) ?? 0;

describe('every automatic decision ends in a told result (through the real queue, signer and notify)', () => {
  it('protection turned off after the decision was queued: refused, told once by email with the Revoke-all link, counted, and status says so', async () => {
    const account = await world.trackAccount({ label: 'switched-off', delegates: ['bot'] });
    await world.repos.accounts.updateSettings(account.address, { killSwitch: 30 });
    const refused = total('DecisionsRefused');
    await decideAndDeliver(account, 'kill-switch', () => world.protection.write('off'));
    await world.protection.write('on');

    expect((await world.control.account(account.address)).delegates).toHaveLength(1);
    const mails = await resultMails(account);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Kill switch fired, keys NOT revoked: protection was turned off');
    expect(mails[0]!.body.text).toContain('automatic protection was turned off stage-wide before it could be signed');
    expect(mails[0]!.body.text).toContain(`"bot" (${account.delegates[0]!.address})`);
    expect(mails[0]!.body.text).toMatch(/\/revoke-all\?token=/);
    expect(total('DecisionsRefused') - refused).toBe(1);
    const shown = await status(account);
    expect(shown.stdout).toMatch(
      /fired at \S+, refused at \S+: automatic protection was turned off stage-wide before it could be signed; nothing revoked and no cap spent/,
    );
  }, 120_000);

  it('an intruder re-signs its key as a web session before signing: refused (api-keys keeps web sessions), told once, and the key is judged again', async () => {
    const account = await world.trackAccount({ label: 'resigned', delegates: ['intruder'] });
    await world.repos.accounts.updateSettings(account.address, { revokeUnknown: 'api-keys' });
    const key = account.delegates[0]!.address;
    const refused = total('DecisionsRefused');
    // The intruder re-signs its key as a web session between the decision and its signing.
    await decideAndDeliver(account, 'unknown-delegate', async () => {
      await world.control.removeDelegate(account.address, key);
      await world.control.addDelegate(account.address, { address: key, name: 'browser', isWebClient: true, expiresInMs: 3_600_000 });
    });

    expect((await world.control.account(account.address)).delegates.map((d) => d.address)).toEqual([key]);
    const mails = await resultMails(account);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Unknown key NOT revoked: the key is now a web session');
    expect(mails[0]!.body.text).toContain('(web session)');
    expect(mails[0]!.body.text).toContain('It is judged again at the first check after');
    expect(total('DecisionsRefused') - refused).toBe(1);
    const shown = await status(account);
    expect(shown.stdout).toContain(`${key}: NOT revoked, refused at`);
    expect(shown.stdout).toContain('judged again at the first check after');
  }, 120_000);

  it('the chain answers 429 until the decision is past its age: failed, told once with what kept it, counted as failed', async () => {
    const account = await world.trackAccount({ label: 'throttled', delegates: ['bot'] });
    await world.repos.accounts.updateSettings(account.address, { killSwitch: 30 });
    const failed = total('DecisionsFailed');
    await world.control.setFaults({ routes: { 'delegate-traders': { rateLimit: 1, retryAfterSeconds: 0 } } });
    try {
      // The queue redelivers every 2 minutes (its clock moves instead of waiting); past 5 minutes the signer refuses the decision.
      await decideAndDeliver(account, 'kill-switch');
    } finally {
      await world.control.resetFaults();
    }
    await world.notify.drain();
    expect((await world.control.account(account.address)).delegates).toHaveLength(1);
    const mails = await resultMails(account);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Kill switch fired, keys NOT revoked: it could not be signed in time');
    expect(mails[0]!.body.text).toContain('could not be signed within 5 minutes');
    expect(mails[0]!.body.text).toContain('the chain could not be reached');
    expect(total('DecisionsFailed') - failed).toBe(1);
    expect((await status(account)).stdout).toMatch(/fired at \S+, failed at \S+: it could not be signed within 5 minutes/);
  }, 180_000);

  it('a revoked key leaves the result\'s "Revoke all N API keys" count: N is what the Revoke-all page lists now (web sessions included)', async () => {
    const account = await world.trackAccount({ label: 'count-after', delegates: ['bot', 'hedger'] });
    await world.control.addDelegate(account.address, { name: 'browser', isWebClient: true, expiresInMs: 3_600_000 });
    await registerDelegateViews(world.repos, world.chain, account.address, Date.now());
    await world.repos.accounts.updateSettings(account.address, { killSwitch: 30 });
    const bot = account.delegates.find((d) => d.name === 'bot')!;
    await decideAndDeliver(account, 'kill-switch', undefined, [bot]);

    const [mail, ...others] = (await sesStore({ to: account.emails[0]! })).filter((m) => m.subject.includes('Kill switch: 1 key revoked'));
    expect(others).toEqual([]);
    // hedger and the web session are left; the revoked bot is not counted.
    expect(mail!.body.text).toContain('Revoke all 2 API keys');
    const link = /(http:\/\/\S+\/revoke-all\?token=[^\s)]+)/.exec(mail!.body.text ?? '')?.[1] ?? '';
    expect(titleOf(await getPage(link))).toBe('Revoke all 2 API keys?');
  }, 120_000);

  // Last: it leaves the kill switch's breaker open for the hour.
  it('the breaker opened later in the same hour: refused, the desk and the operators (OPERATOR_EMAIL, a marked one) told once, counted, and status says "fired, refused: the breaker was open"', async () => {
    const account = await world.trackAccount({ label: 'crashed', delegates: ['bot'] });
    const marked = `marked-operator-${account.address.slice(2, 10)}@example.com`;
    await world.repos.deskOperators.add(marked);
    await world.repos.accounts.updateSettings(account.address, { killSwitch: 30 });
    // Five accounts fired within the hour (the earlier tests' firings among them): this decision is the sixth.
    const now = clock.now();
    const before = (await world.repos.protectionLedger.breaker('kill-switch', now, 5)).accounts;
    for (let i = before; i < 5; i++)
      await world.repos.protectionLedger.countFiring(
        'kill-switch',
        { decisionId: `crash-${i}`, account: `0x${String(i + 1).padStart(40, 'c')}`, at: now },
        now,
        5,
      );
    const fired = 6;
    const refused = total('DecisionsRefused');
    const opened = total('ProtectionBreakerOpened');
    await decideAndDeliver(account, 'kill-switch');

    expect((await world.control.account(account.address)).delegates).toHaveLength(1);
    const mails = await resultMails(account);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Kill switch fired, keys NOT revoked: the breaker was open');
    expect(mails[0]!.body.text).toContain(
      `"bot" (${account.delegates[0]!.address}): NOT revoked: the breaker was open: ${fired} accounts fired kill-switch within an hour`,
    );
    expect(await resultMails(account, OPERATOR)).toHaveLength(1);
    expect(await resultMails(account, marked)).toHaveLength(1);
    await world.repos.deskOperators.remove(marked);
    expect(total('DecisionsRefused') - refused).toBe(1);
    expect(total('ProtectionBreakerOpened') - opened).toBe(1);
    expect((await status(account)).stdout).toMatch(
      new RegExp(`fired at \\S+, refused at \\S+: the breaker was open: ${fired} accounts fired kill-switch within an hour`),
    );
  }, 120_000);
});
