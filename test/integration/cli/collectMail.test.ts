import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { tableName } from '../../../functions/store/tableDefinitions';
import { fakeSesPerFile } from '../../support/delivery/fakeSesPerFile';
import { cliWorld } from '../../support/cli/cliWorld';
import { CALM } from '../../support/collect/pipelineHarness';

/** Requests the AWS SDK makes for one send (its default retry strategy retries throttling). */
const SDK_ATTEMPTS = 3;

/**
 * `sentinel collect` sends the alerts it raises through the mail-rate governor (alert share), as
 * `npm start` and the notify Lambda do: a send SES throttles is retried by the governed sender
 * within the same delivery attempt, instead of failing the delivery back to the queue.
 */
describe('sentinel collect: alert mail through the mail-rate governor', () => {
  // SES throttles every request of the first send to each recipient (the SDK's own attempts
  // included), then accepts.
  const requests = new Map<string, number>();
  const ses = fakeSesPerFile((recipient) => {
    const n = (requests.get(recipient) ?? 0) + 1;
    requests.set(recipient, n);
    return n <= SDK_ATTEMPTS ? 'Throttling' : 'ok';
  });
  const { tables, sim, cli } = cliWorld({ sim: { seed: 5 }, env: () => ({ SES_ENDPOINT: ses.endpoint }) });

  it('retries a throttled alert inside one delivery attempt, and sends it once', async () => {
    // A calm account: a random one is, at some hours, already past a default drawdown level when added
    // (the onboarding-breaches email then makes the first collect's mail).
    const owner = await sim.control.createAccount({ profile: CALM });
    expect((await cli('accounts', 'add', owner.address, '--email', 'owner@example.com', '--interval', '1h')).code).toBe(0);
    expect((await cli('collect', '--account', owner.address)).code).toBe(0);
    expect(ses.attempts.size, 'the first collect is quiet').toBe(0);
    await sim.control.addDelegate(owner.address, { name: 'bot' });

    const run = await cli('collect', '--account', owner.address, '--json');
    expect(run.code, run.stderr).toBe(0);
    const [outcome] = JSON.parse(run.stdout) as { kind: string; events?: number }[];
    expect(outcome?.events, 'the new delegate raises an alert').toBeGreaterThan(0);

    const { Items = [] } = await tables.client.send(new ScanCommand({ TableName: tableName(tables.prefix, 'deliveries') }));
    const alerts = Items.filter((item) => item['status'] !== undefined);
    expect(alerts.length).toBeGreaterThan(0);
    for (const delivery of alerts) {
      expect(delivery['status']).toBe('sent');
      // Ungoverned, the throttled send failed the attempt and the queue's redelivery made a second one.
      expect(delivery['attempts']).toBe(1);
    }
    expect(ses.attempts.get('owner@example.com')).toBe(alerts.length + SDK_ATTEMPTS);
    expect(ses.accepted.filter((r) => r === 'owner@example.com')).toHaveLength(alerts.length);
  });
});
