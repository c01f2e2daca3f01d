import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { simPerFile } from '../../support/sim/simPerFile';
import { cliRunner } from '../../support/cli/cliHarness';
import { CALM, SIM_START } from '../../support/collect/pipelineHarness';
import { sesStore, type StoredEmail } from '../../support/sesStore';
import { testTables } from '../../support/testTables';

const HOUR = 3_600_000;
const run = randomUUID().slice(0, 8);
const HOOK_SECRET = newWebhookSecret();
const env = { [`E2E_ONBOARD_HOOK_${run}`]: HOOK_SECRET };

/**
 * Accounts already past a level when they are imported: the chain simulator over HTTP, DynamoDB
 * Local, local SES, a local webhook receiver and the real CLI (`accounts import`, `collect`,
 * `report`), on a stopped service clock. No alert storm, and no silence either: each recipient
 * gets one notice for the batch, listing its breached accounts worst first.
 */
describe('an import of accounts already in drawdown', () => {
  const tables = testTables();
  const sim = simPerFile({ seed: 17, clock: { startMs: SIM_START, speed: 0 }, historyDays: 30 });
  const receivers = receiversPerFile();
  let cli: ReturnType<typeof cliRunner>;
  let now = SIM_START;

  beforeAll(async () => {
    Object.assign(process.env, env);
    cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix, ROCKET_NODE_URL: sim.nodeUrl, ROCKET_INDEXER_URL: sim.indexerUrl }, () => now);
  });

  const advance = async (ms: number) => {
    await sim.control.advanceClock(ms);
    now += ms;
  };
  const who = (name: string) => `${name}+${run}@example.com`;
  const onboardingNotices = async (to: string): Promise<StoredEmail[]> =>
    (await sesStore({ to })).filter((m) => /already past a drawdown level/.test(m.subject));
  const drawdownAlerts = async (to: string): Promise<StoredEmail[]> => (await sesStore({ to })).filter((m) => /\/snooze\?token=/.test(m.body.text ?? ''));
  /** The account labels a notice lists, in its order. */
  const listed = (mail: StoredEmail | undefined): string[] => [...(mail?.body.text ?? '').matchAll(/^\s+\d+\. (\S+) \(/gm)].map((m) => m[1] ?? '');

  it('each recipient gets one notice listing its breached accounts worst first; nothing for the others; a second collect sends nothing; the digest shows them open', async () => {
    const [risk, traderA, traderC, traderBD] = ['risk', 'trader-a', 'trader-c', 'trader-bd'].map(who) as [string, string, string, string];
    const accounts = await Promise.all(
      ['deep', 'mid', 'calm', 'small'].map(async (label) => ({ ...(await sim.control.createAccount({ label, profile: CALM } as never)), label })),
    );
    const [deep, mid, calm, small] = accounts as [(typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0]];
    // Before the import: deep loses 14%, mid 8%, small 6%; calm stays calm.
    await sim.control.drawdown(deep.address, { pct: 14 });
    await sim.control.drawdown(mid.address, { pct: 8 });
    await sim.control.drawdown(small.address, { pct: 6 });
    await advance(2 * HOUR);

    const recipients: Record<string, string[]> = { deep: [risk, traderA], mid: [risk, traderBD], calm: [risk, traderC], small: [risk, traderBD] };
    const dir = await mkdtemp(join(tmpdir(), 'onboard-'));
    const csv = join(dir, 'desk.csv');
    await writeFile(
      csv,
      [
        'address,email,label,drawdown,delegate-watch',
        ...accounts.map((a) => `${a.address},${(recipients[a.label] ?? []).join(';')},${a.label},5;10;20,none`),
      ].join('\n') + '\n',
    );
    const imported = await cli('accounts', 'import', csv);
    expect(imported.code, imported.stderr).toBe(0);

    // A webhook routed to deep and calm in the drawdown category.
    const hookUrl = receivers.webhookUrl(`onboard-${run}`);
    const hook = await cli('channels', 'add', 'onboard-hook', '--type', 'webhook', '--secret', `env:E2E_ONBOARD_HOOK_${run}`, '--url', hookUrl);
    expect(hook.code, hook.stderr).toBe(0);
    for (const a of [deep, calm]) expect((await cli('accounts', 'update', a.address, '--add-channel', 'onboard-hook')).code).toBe(0);

    const first = await cli('collect');
    expect(first.code, first.stderr).toBe(0);

    const riskNotices = await onboardingNotices(risk);
    expect(riskNotices).toHaveLength(1);
    expect(listed(riskNotices[0]), 'worst first, the calm account left out').toEqual(['deep', 'mid', 'small']);
    expect(riskNotices[0]?.body.text).toMatch(/deep \(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\): 1\d\.\d\d% drawdown, past the 10% level/);
    expect(riskNotices[0]?.body.text).toMatch(/mid \(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\): \d\.\d\d% drawdown, past the 5% level/);
    expect(listed((await onboardingNotices(traderA))[0])).toEqual(['deep']);
    expect(await onboardingNotices(traderA)).toHaveLength(1);
    expect(listed((await onboardingNotices(traderBD))[0])).toEqual(['mid', 'small']);
    expect(await onboardingNotices(traderBD)).toHaveLength(1);
    expect(await sesStore({ to: traderC }), 'the calm account raised nothing').toHaveLength(0);
    for (const to of [risk, traderA, traderBD]) expect(await drawdownAlerts(to), `no per-account alert storm for ${to}`).toHaveLength(0);

    const hooked = receivers.received.filter((r) => r.kind === 'webhook' && r.destination === `onboard-${run}`);
    expect(hooked.map((r) => r.status)).toEqual([200]);
    const event = new Webhook(HOOK_SECRET).verify(hooked[0]?.body ?? '', hooked[0]?.headers ?? {}) as { type: string; data: { fields: { label: string }[] } };
    expect(event.type).toBe('drawdown.onboarding');
    expect(event.data.fields.map((f) => f.label.split(' ')[0])).toEqual(['deep']);

    // status words the level as breached when tracking began.
    expect((await cli('status', deep.address)).stdout).toMatch(/already breached when tracking began/);

    // A second collect (and its redelivered checks) sends nothing more.
    await advance(HOUR);
    const second = await cli('collect', '--all');
    expect(second.code, second.stderr).toBe(0);
    for (const to of [risk, traderA, traderBD]) expect(await onboardingNotices(to), to).toHaveLength(1);
    expect(await sesStore({ to: traderC })).toHaveLength(0);
    expect(receivers.received.filter((r) => r.destination === `onboard-${run}`)).toHaveLength(1);

    // The digest lists the breached accounts under open alerts (not one reminder email each).
    expect((await cli('recipients', 'update', risk, '--digest', 'on')).code).toBe(0);
    const report = await cli('report', '--force', '--recipient', risk);
    expect(report.code, report.stderr).toBe(0);
    const digest = (await sesStore({ to: risk })).find((m) => /digest/i.test(m.subject));
    expect(digest, 'a digest went to risk').toBeDefined();
    const openAlerts = (label: string) => new RegExp(`${label} \\([^)]*\\)[\\s\\S]*?Open alerts (\\d+)`).exec(digest?.body.text ?? '')?.[1];
    expect(openAlerts('deep')).toBe('2');
    expect(openAlerts('mid')).toBe('1');
    expect(openAlerts('small')).toBe('1');
    expect(openAlerts('calm')).toBe('0');

    // From then on a deeper level fires as for any breach.
    await sim.control.drawdown(deep.address, { pct: 12 });
    await advance(2 * HOUR);
    expect((await cli('collect', '--account', deep.address)).code).toBe(0);
    const alerts = await drawdownAlerts(traderA);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.subject).toMatch(/20%/);
  }, 300_000);
});
