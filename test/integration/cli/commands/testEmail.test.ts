import { describe, expect, it } from 'vitest';
import { sesRawMessage, sesStore } from '../../../support/sesStore';
import { testTables } from '../../../support/testTables';
import { cliRunner } from '../../../support/cli/cliHarness';

describe('sentinel test-email', () => {
  const tables = testTables();

  it('sends a rendered sample of each email kind through SES', async () => {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix });
    const to = `samples-${Date.now()}@example.com`;
    const run = await cli('test-email', to, '--json');
    expect(run.code, run.stderr).toBe(0);
    const outcomes = JSON.parse(run.stdout) as { kind: string; sent: boolean; sesMessageId: string }[];
    expect(outcomes.map((o) => o.kind)).toEqual([
      'daily-report',
      'drawdown-alert',
      'delegate-expiry',
      'new-delegate',
      'revocation-result',
      'revoke-all-result',
      'digest',
      'snooze-notice',
      'onboarding-breaches',
      'kill-switch',
      'decision-result',
    ]);
    expect(outcomes.every((o) => o.sent)).toBe(true);

    const inbox = await sesStore({ to });
    expect(inbox).toHaveLength(11);
    for (const email of inbox) {
      expect(email.subject).toMatch(/^\[sample\] /);
      expect(email.body.html).toMatch(/bot-main/);
      expect(email.body.text).toMatch(/bot-main/);
    }
    const report = outcomes[0]!;
    const raw = (await sesRawMessage(report.sesMessageId)).toString('utf8');
    expect(raw).toMatch(/Content-Type: image\/png/i);
    expect(raw).toMatch(/List-Unsubscribe:/i);
    // The digest's trend lines travel inline too.
    const digest = (await sesRawMessage(outcomes.find((o) => o.kind === 'digest')!.sesMessageId)).toString('utf8');
    expect(digest.match(/Content-ID: <trend-\d@sentinel>/gi)).toHaveLength(4);
  });

  it('refuses a bad address or kind with exit 2, sending nothing', async () => {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix });
    expect((await cli('test-email', 'not-an-address')).code).toBe(2);
    const kind = await cli('test-email', 'x@example.com', '--kind', 'weekly');
    expect(kind.code).toBe(2);
    expect(kind.stderr).toMatch(/--kind must be one of daily-report/);
  });
});
