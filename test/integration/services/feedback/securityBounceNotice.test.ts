import { SESClient } from '@aws-sdk/client-ses';
import { describe, expect, inject, it } from 'vitest';
import { createSesEventsHandler, SesEventsError } from '../../../../functions/handlers/ses-events';
import { SesSender } from '../../../../functions/mail/send/sesSender';
import { freePort } from '../../../../local/freePort';
import { lambdaContext } from '../../../../local/lambdaContext';
import { mailDeps, mailTo, testClock, uniqueEmail } from '../../../support/delivery/mailHarness';
import { SES_TEST_MAIL, snsEvent } from '../../../support/feedback/sesNotifications';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';

const NOW = Date.parse('2025-03-04T07:00:00Z');
const context = lambdaContext('ses-events-security-bounce');
const tables = testTables();
const clock = testClock(NOW);
const SALT = 0x5b0;

/** A sender through the run's local SES naming a configuration set, as every function does in AWS. */
function stageSender(endpoint: string = inject('sesEndpoint')): SesSender {
  const client = new SESClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  return new SesSender(client, { configurationSetName: 'sentinel-test-mail' });
}

const TLS_DIAGNOSTIC = 'smtp; 554 5.7.1 TLS required but not offered by the receiving server; see https://mail.example.net/help?id=secret-token';

function permanentBounce(feedbackId: string, recipients: string[], subType = 'General'): unknown {
  return {
    eventType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: subType,
      bouncedRecipients: recipients.map((emailAddress) => ({ emailAddress, action: 'failed', status: '5.7.1', diagnosticCode: TLS_DIAGNOSTIC })),
      timestamp: SES_TEST_MAIL.timestamp,
      feedbackId,
    },
    mail: SES_TEST_MAIL,
  };
}

let next = 0;
/** Tracks an account mailing `emails`; returns its address. */
async function track(deps: ReturnType<typeof mailDeps>, emails: string[], label: string | null = null): Promise<string> {
  const account = accountRecord({ address: testAddress(++next, SALT), emails, label });
  await deps.repos.accounts.create(account);
  return account.address;
}

// Each case runs the handler several times against DynamoDB Local and the local SES: slow on a loaded machine.
describe('ses-events tells the operator when a permanent bounce suppresses a security recipient', { timeout: 120_000 }, () => {
  it('emails the operator once (even when SNS delivers the bounce twice): the address, its accounts, the bounce, no link', async () => {
    const operator = uniqueEmail('operator');
    const [secure, optedOut, stranger] = [uniqueEmail('secure'), uniqueEmail('opted-out'), uniqueEmail('stranger')];
    const deps = { ...mailDeps(tables, clock, stageSender()), operatorEmail: operator };
    const desk = await track(deps, [secure, 'desk@example.com'], 'Desk A');
    const fund = await track(deps, [uniqueEmail('other'), secure.toUpperCase()]);
    const quiet = await track(deps, [optedOut]);
    await deps.repos.preferences.optOut(optedOut, ['security']);
    const handler = createSesEventsHandler(deps);
    const event = snsEvent([permanentBounce(`fb-${secure}`, [secure, optedOut, stranger], 'NoEmail')]);

    await handler(event, context);
    await handler(event, context);

    for (const address of [secure, optedOut, stranger]) expect(await deps.repos.suppressions.isSuppressed(address), address).toBe(true);
    const told = await mailTo(operator);
    expect(told).toHaveLength(1);
    const [notice] = told;
    expect(notice?.subject).toContain(secure.toLowerCase());
    const text = notice?.text ?? '';
    expect(text).toContain(`Address: ${secure.toLowerCase()}`);
    expect(text).toContain(`- ${desk} (Desk A)`);
    expect(text).toContain(`- ${fund}`);
    expect(text).not.toContain(quiet);
    expect(text).not.toContain(optedOut);
    expect(text).not.toContain(stranger);
    expect(text).toContain('Bounce: Permanent / NoEmail');
    expect(text).toContain('Status: 5.7.1');
    expect(text).toContain('Diagnostic: smtp; 554 5.7.1 TLS required but not offered by the receiving server; see [link removed]');
    expect(text).toContain('sentinel recipients unsuppress <address> --force');
    expect(text).toContain('docs/operations.md');
    // No link (the server's URL and its token included), no unsubscribe header.
    for (const body of [text, String(notice?.html ?? '')]) {
      expect(body).not.toMatch(/https?:\/\//);
      expect(body).not.toContain('secret-token');
    }
    expect(notice?.headers.has('list-unsubscribe')).toBe(false);
    expect(deps.counters.totals.get('SecurityRecipientsSuppressed')).toBe(2);
    // Only the operator: nothing was sent to the suppressed addresses.
    for (const address of [secure, optedOut, stranger]) expect(await mailTo(address), address).toEqual([]);
  });

  it('sends nothing for a bounce of addresses that get no security notices, a transient bounce, or a complaint', async () => {
    const operator = uniqueEmail('operator');
    const [optedOut, transient, complainer] = [uniqueEmail('opted-out'), uniqueEmail('transient'), uniqueEmail('complainer')];
    const deps = { ...mailDeps(tables, clock, stageSender()), operatorEmail: operator };
    await track(deps, [optedOut, transient, complainer]);
    await deps.repos.preferences.optOut(optedOut, ['security']);
    const soft = permanentBounce('fb-soft', [transient]) as { bounce: { bounceType: string } };
    soft.bounce.bounceType = 'Transient';
    await createSesEventsHandler(deps)(
      snsEvent([
        permanentBounce('fb-opted', [optedOut, uniqueEmail('nobody')]),
        soft,
        { eventType: 'Complaint', complaint: { complainedRecipients: [{ emailAddress: complainer }] }, mail: SES_TEST_MAIL },
      ]),
      context,
    );
    expect(await deps.repos.suppressions.isSuppressed(transient)).toBe(false);
    expect(await deps.repos.suppressions.isSuppressed(complainer)).toBe(true);
    expect(await mailTo(operator)).toEqual([]);
    expect(deps.counters.totals.get('SecurityRecipientsSuppressed')).toBeUndefined();
  });

  it('when SES cannot be reached, fails the event for SNS to retry; the retry tells the operator once', async () => {
    const operator = uniqueEmail('operator');
    const secure = uniqueEmail('secure');
    const base = mailDeps(tables, clock, stageSender());
    await track(base, [secure]);
    const event = snsEvent([permanentBounce(`fb-${secure}`, [secure])]);
    const unreachable = stageSender(`http://127.0.0.1:${await freePort()}`);

    await expect(createSesEventsHandler({ ...base, sender: unreachable, operatorEmail: operator })(event, context)).rejects.toBeInstanceOf(SesEventsError);
    expect(await base.repos.suppressions.isSuppressed(secure)).toBe(true);
    expect(await mailTo(operator)).toEqual([]);

    await createSesEventsHandler({ ...base, operatorEmail: operator })(event, context);
    await createSesEventsHandler({ ...base, operatorEmail: operator })(event, context);
    expect(await mailTo(operator)).toHaveLength(1);
  });

  it('tells the marked operators too (sentinel desk operators add), each once; with no OPERATOR_EMAIL, them alone', async () => {
    const [operator, marked, secure, other] = [uniqueEmail('operator'), uniqueEmail('marked'), uniqueEmail('secure'), uniqueEmail('secure-2')];
    const base = mailDeps(tables, clock, stageSender());
    await track(base, [secure, other]);
    await base.repos.deskOperators.add(marked);
    try {
      const handler = createSesEventsHandler({ ...base, operatorEmail: operator });
      const event = snsEvent([permanentBounce(`fb-${secure}`, [secure])]);
      await handler(event, context);
      await handler(event, context);
      expect(await mailTo(operator)).toHaveLength(1);
      const [told] = await mailTo(marked);
      expect(told?.text).toContain(`Address: ${secure.toLowerCase()}`);
      expect(await mailTo(marked)).toHaveLength(1);

      await createSesEventsHandler(base)(snsEvent([permanentBounce(`fb-${other}`, [other])]), context);
      expect((await mailTo(marked)).map((m) => m.subject)).toEqual([told?.subject, expect.stringContaining(other.toLowerCase())]);
      expect(await mailTo(operator)).toHaveLength(1);
    } finally {
      await base.repos.deskOperators.remove(marked);
    }
  });

  it('without OPERATOR_EMAIL, suppresses, counts and logs (no address in the log line), and sends nothing', async () => {
    const secure = uniqueEmail('secure');
    const lines: { message: string; fields: unknown }[] = [];
    const base = mailDeps(tables, clock, stageSender());
    const log = { ...base.log, warn: (message: string, fields?: unknown) => void lines.push({ message, fields }) };
    await track(base, [secure]);
    await createSesEventsHandler({ ...base, log })(snsEvent([permanentBounce(`fb-${secure}`, [secure])]), context);
    expect(await base.repos.suppressions.isSuppressed(secure)).toBe(true);
    expect(base.counters.totals.get('SecurityRecipientsSuppressed')).toBe(1);
    const warning = lines.find((l) => l.message.includes('no OPERATOR_EMAIL'));
    expect(warning?.fields).toMatchObject({ recipients: 1, bounceType: 'Permanent' });
    expect(JSON.stringify(lines)).not.toContain(secure);
    expect(await mailTo(secure)).toEqual([]);
  });
});
