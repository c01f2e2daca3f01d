import { accountSettingsSchema } from '../functions/domain/account';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { sendSelectedReports } from '../functions/services/report/send/sendSelectedReports';
import type { Repositories } from '../functions/store/repositories';
import { setUpDemoChannels } from './demoChannels';
import type { LocalSystem } from './localSystem';
import type { ChatReceivers } from './receivers/chatReceivers';
import { SimControlClient, findDemo, setUpDemo, type DemoAccount } from './sim';
import type { RunningSimulator } from './sim/http/server';

/** Where the demo's emails go (any address works with the local SES endpoint). */
export const DEMO_EMAIL = 'you@example.com';

/**
 * The `npm start` demo on the simulator: three accounts (one with delegates, one expiring soon;
 * one heading into a 25% drawdown over 90 simulated seconds; one about to withdraw 60% of its
 * equity, which must fire nothing). Owner keys go into `signerEnv` as `SENTINEL_DEMO_KEY_<ROLE>`
 * so one-click revocation works. On the first run the accounts are tracked, collected at once
 * and sent a daily report; 20 s later a delegate nobody announced appears, so a new-delegate
 * notice follows on the next poll.
 */
export async function setUpLocalDemo(options: {
  sim: RunningSimulator;
  repos: Repositories;
  now: () => number;
  signerEnv: Record<string, string | undefined>;
  /** The local chat receivers: one demo channel of each chat type (and a pager) is routed to the demo accounts. */
  receivers?: ChatReceivers | null;
  log: (line: string) => void;
}) {
  const control = new SimControlClient(options.sim.controlUrl);
  // A chain kept from an earlier run already has them (and their scripted events): they are not made again.
  const demo = (await findDemo(control)) ?? (await setUpDemo(control, { drawdownOverMs: 90_000, withdrawalInMs: 45_000 }));
  const fresh: DemoAccount[] = [];
  for (const account of demo) {
    const variable = `SENTINEL_DEMO_KEY_${account.role.toUpperCase()}`;
    options.signerEnv[variable] = account.privateKey;
    if (await options.repos.accounts.get(account.address)) continue;
    const settings = accountSettingsSchema.parse({
      address: account.address,
      email: DEMO_EMAIL,
      label: account.label,
      interval: '1m',
      drawdown: '5,10,20',
      signer: `env:${variable}`,
    });
    await options.repos.accounts.create(newTrackedAccount(settings, options.now()));
    fresh.push(account);
  }
  if (options.receivers) {
    const channels = await setUpDemoChannels(
      options.repos,
      demo.map((a) => a.address),
      options.now(),
    );
    if (channels.length > 0) options.log(`demo: channels ${channels.join(', ')} post to the local receivers (${options.receivers.baseUrl}/received)`);
  }
  if (fresh.length > 0) options.log(`demo: tracking ${fresh.map((a) => `${a.label} ${a.address}`).join(', ')}`);

  return {
    accounts: demo,
    /** First run only: collect now, send each demo account its daily report, then add a surprise delegate. */
    async afterSystemStarted(system: LocalSystem): Promise<void> {
      if (fresh.length === 0) return;
      const cycle = await system.pipeline.runCycle({ kind: 'all' });
      options.log(`demo: collected ${cycle.outcomes.length} accounts`);
      const reports = await sendSelectedReports(system.mail, options.now(), { kind: 'extra', accounts: await system.repos.accounts.list(), only: false });
      options.log(`demo: sent ${reports.filter((r) => r.outcome.kind === 'sent').length} daily report(s) to ${DEMO_EMAIL}`);
      const steady = demo.find((a) => a.role === 'steady');
      if (steady) {
        setTimeout(() => {
          control
            .addDelegate(steady.address, { name: 'unknown-bot', expiresInMs: 14 * 86_400_000 })
            .then(() => options.log(`demo: a delegate nobody announced was added to ${steady.label}; a new-delegate notice follows`))
            .catch(() => undefined);
        }, 20_000).unref();
      }
    },
  };
}
