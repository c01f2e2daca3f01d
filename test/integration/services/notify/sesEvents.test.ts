import { describe, expect, it } from 'vitest';
import { createNotifyHandler } from '../../../../functions/handlers/notify';
import { createSesEventsHandler, SesEventsError } from '../../../../functions/handlers/ses-events';
import { lambdaContext } from '../../../../local/lambdaContext';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';
import { mailDeps, mailTo, testClock, uniqueEmail } from '../../../support/delivery/mailHarness';
import { SES_TEST_MAIL as mail, snsEvent } from '../../../support/feedback/sesNotifications';

const NOW = Date.parse('2025-03-04T07:00:00Z');
const context = lambdaContext('ses-events-test');
const tables = testTables();
const clock = testClock(NOW);

function bounce(bounceType: string, recipients: string[]): unknown {
  return {
    eventType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: 'General',
      bouncedRecipients: recipients.map((emailAddress) => ({ emailAddress, action: 'failed', status: '5.1.1' })),
      timestamp: mail.timestamp,
      feedbackId: 'f-1',
    },
    mail,
  };
}

function complaint(recipients: string[]): unknown {
  return {
    eventType: 'Complaint',
    complaint: { complainedRecipients: recipients.map((emailAddress) => ({ emailAddress })), timestamp: mail.timestamp, feedbackId: 'f-2' },
    mail,
  };
}

describe('ses-events', () => {
  it('suppresses permanently bounced and complaining addresses, ignores transient bounces, and skips malformed messages', async () => {
    const [hard, soft, angry, second] = [uniqueEmail('hard'), uniqueEmail('soft'), uniqueEmail('angry'), uniqueEmail('second')];
    const deps = mailDeps(tables, clock);
    const handler = createSesEventsHandler(deps);
    await handler(
      snsEvent([
        'not json',
        { eventType: 'Bounce', mail },
        bounce('Permanent', [hard.toUpperCase(), `Owner <${second}>`]),
        bounce('Transient', [soft]),
        complaint([angry]),
        { eventType: 'Delivery', delivery: { recipients: [soft] }, mail },
      ]),
      context,
    );
    const suppressed = async (email: string) => deps.repos.suppressions.isSuppressed(email);
    expect(await suppressed(hard)).toBe(true);
    expect(await suppressed(second)).toBe(true);
    expect(await suppressed(angry)).toBe(true);
    expect(await suppressed(soft)).toBe(false);
    expect(deps.counters.totals.get('MalformedSesEvents')).toBe(2);
    expect(deps.counters.totals.get('SuppressedBounces')).toBe(2);
    expect(deps.counters.totals.get('SuppressedComplaints')).toBe(1);
  });

  it('also reads identity notifications (notificationType), and then mail to the address stops', async () => {
    const [bounced, kept] = [uniqueEmail('bounced'), uniqueEmail('kept')];
    const deps = mailDeps(tables, clock);
    const account = accountRecord({ address: testAddress(1, 0x5e5), emails: [bounced, kept] });
    await deps.repos.accounts.create(account);
    await createSesEventsHandler(deps)(
      snsEvent([{ ...(bounce('Permanent', [bounced]) as object), eventType: undefined, notificationType: 'Bounce' }]),
      context,
    );

    const event = {
      kind: 'new-delegate',
      eventId: `delegate:${account.address}:x:1:new`,
      account: account.address,
      at: NOW,
      delegate: { address: testAddress(2, 0x5e5), expiryMs: null, name: 'bot', isWebClient: false },
      firstSeenAt: NOW,
    };
    const response = await createNotifyHandler(deps)(
      {
        Records: [
          {
            messageId: 'm-1',
            receiptHandle: 'rh',
            body: JSON.stringify(event),
            attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(NOW), SenderId: 't', ApproximateFirstReceiveTimestamp: String(NOW) },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:notify',
            awsRegion: 'us-east-1',
          },
        ],
      },
      context,
    );
    expect(response.batchItemFailures).toEqual([]);
    expect(await mailTo(bounced)).toEqual([]);
    expect(await mailTo(kept)).toHaveLength(1);
  });

  it('asks SNS to retry when an address could not be suppressed, after handling the rest', async () => {
    const address = uniqueEmail('later');
    const deps = mailDeps(tables, clock);
    let calls = 0;
    const flaky = {
      ...deps,
      repos: {
        ...deps.repos,
        suppressions: {
          suppress: async (email: string, reason: 'bounce' | 'complaint' | 'unsubscribe') => {
            calls++;
            if (calls === 1) throw new Error('throttled');
            await deps.repos.suppressions.suppress(email, reason);
          },
        },
      },
    };
    await expect(createSesEventsHandler(flaky)(snsEvent([complaint([uniqueEmail('first')]), complaint([address])]), context)).rejects.toBeInstanceOf(
      SesEventsError,
    );
    expect(await deps.repos.suppressions.isSuppressed(address)).toBe(true);
  });
});
