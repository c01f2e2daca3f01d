import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAIN_REST_BASE, STAGE_NAMES } from '../../../infra/config/chainEnvironments';
import {
  chainRateBudget,
  DEFAULT_COLLECT_CONCURRENCY,
  MIN_EVENT_SOURCE_CONCURRENCY,
  REQUESTS_PER_POLL,
  worstCaseRps,
} from '../../../infra/config/chainRateBudget';
import { LINK_RATE_WINDOW_SECONDS, loadStageConfig, REQUIRED_CONTEXT, StageConfigError } from '../../../infra/config/stageConfig';
import { thrownBy } from '../../support/thrownBy';

const load = (context: Record<string, unknown>) => loadStageConfig((key) => context[key]);
/** What a beta synth requires (testnet alike). */
const BETA = { stage: 'beta', account: '111122223333', region: 'eu-west-1', mailFrom: 'alerts@beta.example.com', alarmEmail: 'ops@example.com' } as const;
const keyOfError = (context: Record<string, unknown>): string => thrownBy(StageConfigError, () => load(context)).key;

describe('loadStageConfig', () => {
  it.each(STAGE_NAMES)('%s: own prefix, node at the REST base, indexer under the configured prefix', (name) => {
    const stage = { ...BETA, stage: name };
    const config = load(stage);
    expect(config.prefix).toBe(`sentinel-${name}-`);
    expect(config.chain.nodeUrl).toBe(CHAIN_REST_BASE[name]);
    expect(config.chain.indexerUrl).toBe(`${CHAIN_REST_BASE[name]}/indexer`);
    expect(load({ ...stage, indexerPath: '/history/v1' }).chain.indexerUrl).toBe(`${CHAIN_REST_BASE[name]}/history/v1`);
    expect(load({ ...stage, indexerPath: '' }).chain.indexerUrl).toBe(CHAIN_REST_BASE[name]);
  });

  it('names the context key that is wrong', () => {
    expect(keyOfError({})).toBe('stage');
    expect(keyOfError({ stage: 'mainnet' })).toBe('stage');
    expect(keyOfError({ ...BETA, chainRps: 'fast' })).toBe('chainRps');
    expect(keyOfError({ ...BETA, collectConcurrency: 1 })).toBe('collectConcurrency');
    expect(keyOfError({ ...BETA, mailFrom: 'not-an-address' })).toBe('mailFrom');
    expect(keyOfError({ ...BETA, ownerKeys: ['Desk A'] })).toBe('ownerKeys');
    expect(keyOfError({ ...BETA, ownerKeyArns: 'alias/desk-b' })).toBe('ownerKeyArns');
    expect(keyOfError({ ...BETA, ownerKeys: '["unterminated' })).toBe('ownerKeys');
    expect(keyOfError({ ...BETA, logRetentionDays: 31 })).toBe('logRetentionDays');
    expect(keyOfError({ ...BETA, domainName: 'links.example.com' })).toBe('certificateArn');
    expect(keyOfError({ ...BETA, indexerPath: 'indexer' })).toBe('indexerPath');
    expect(keyOfError({ ...BETA, chainRps: 2, signerRps: 2 })).toBe('chainRps');
    expect(keyOfError({ ...BETA, signerRps: 0.01, signerConcurrency: 5 })).toBe('chainRps');
    expect(keyOfError({ ...BETA, account: '1234' })).toBe('account');
    expect(keyOfError({ ...BETA, region: 'Europe' })).toBe('region');
  });

  it.each(['testnet', 'beta'] as const)('%s: requires account, region, mailFrom and alarmEmail, naming the missing one', (stage) => {
    for (const key of REQUIRED_CONTEXT[stage]) {
      const context: Record<string, unknown> = { ...BETA, stage };
      delete context[key];
      expect(keyOfError(context), key).toBe(key);
      expect(() => load(context)).toThrow(new RegExp(`context "${key}": required for stage ${stage}`));
    }
    expect(REQUIRED_CONTEXT[stage]).toEqual(['account', 'region', 'mailFrom', 'alarmEmail']);
    expect(load({ ...BETA, stage }).env).toEqual({ account: '111122223333', region: 'eu-west-1' });
  });

  it('names every missing required key at once', () => {
    expect(keyOfError({ stage: 'beta' })).toBe('account, region, mailFrom, alarmEmail');
    expect(() => load({ stage: 'testnet', account: '111122223333', region: 'eu-west-1' })).toThrow(
      'context "mailFrom, alarmEmail": required for stage testnet (-c mailFrom=... -c alarmEmail=...)',
    );
  });

  it('lets devnet stay environment-agnostic, or pin it with account and region together', () => {
    expect(load({ stage: 'devnet' }).env).toBeUndefined();
    expect(load({ stage: 'devnet', account: '111122223333', region: 'us-east-1' }).env).toEqual({ account: '111122223333', region: 'us-east-1' });
    expect(keyOfError({ stage: 'devnet', account: '111122223333' })).toBe('region');
  });

  it('reads the cost-allocation owner and the tracing switch', () => {
    expect(load({ stage: 'devnet' })).toMatchObject({ tracing: false, owner: 'portfolio-sentinel-operators' });
    expect(load({ stage: 'devnet', tracing: 'true', owner: 'desk-ops' })).toMatchObject({ tracing: true, owner: 'desk-ops' });
    expect(keyOfError({ stage: 'devnet', tracing: 'yes' })).toBe('tracing');
  });

  it('reads lists as JSON arrays (cdk.json) or comma-separated text (-c key=a,b)', () => {
    expect(load({ stage: 'devnet', ownerKeys: ['desk-a', 'desk-b'] }).ownerKeys).toEqual(['desk-a', 'desk-b']);
    expect(load({ stage: 'devnet', ownerKeys: '["desk-a","desk-b"]' }).ownerKeys).toEqual(['desk-a', 'desk-b']);
    expect(load({ stage: 'devnet', ownerKeys: 'desk-a, desk-b' }).ownerKeys).toEqual(['desk-a', 'desk-b']);
    expect(load({ stage: 'devnet' }).ownerKeys).toEqual([]);
  });

  it('derives the SES identity from the sender unless one is given', () => {
    expect(load({ ...BETA, mailFrom: 'alerts@mail.example.org' }).mail.identity).toBe('mail.example.org');
    expect(load({ ...BETA, mailFrom: 'alerts@mail.example.org', sesIdentity: 'alerts@mail.example.org' }).mail.identity).toBe('alerts@mail.example.org');
  });

  it('takes a custom domain only with its certificate, in the stage region (the link endpoint is regional)', () => {
    const config = load({ ...BETA, domainName: 'links.example.com', certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/abc' });
    expect(config.domain).toEqual({ name: 'links.example.com', certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/abc' });
    expect(keyOfError({ ...BETA, domainName: 'links.example.com', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/abc' })).toBe(
      'certificateArn',
    );
    expect(() => load({ ...BETA, domainName: 'links.example.com', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/abc' })).toThrow(
      /must be in eu-west-1, not us-east-1/,
    );
  });

  it('reads the per-client limits of the link endpoint (WAF: requests per IP per 5 minutes, and POSTs)', () => {
    expect(LINK_RATE_WINDOW_SECONDS).toBe(300);
    expect(load({ stage: 'devnet' }).linkRateLimit).toEqual({ requests: 100, posts: 20 });
    expect(load({ stage: 'devnet', linkRateLimit: '1000', linkPostRateLimit: 30 }).linkRateLimit).toEqual({ requests: 1000, posts: 30 });
    expect(keyOfError({ stage: 'devnet', linkRateLimit: 9 })).toBe('linkRateLimit'); // WAF's minimum is 10
    expect(keyOfError({ stage: 'devnet', linkRateLimit: 'many' })).toBe('linkRateLimit');
    expect(keyOfError({ stage: 'devnet', linkPostRateLimit: 2.5 })).toBe('linkPostRateLimit');
    expect(keyOfError({ stage: 'devnet', linkRateLimit: 50, linkPostRateLimit: 60 })).toBe('linkPostRateLimit');
  });
});

describe('chainRateBudget', () => {
  it('keeps collect instances x their rate + the signer reserve within the total', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 10_000, noNaN: true }),
        fc.integer({ min: 2, max: 1000 }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        (total, concurrency, signer) => {
          fc.pre((total - signer) / concurrency >= 0.01);
          const budget = chainRateBudget(total, concurrency, signer);
          expect(budget.collectRps).toBeGreaterThan(0);
          expect(budget.collectConcurrency * budget.collectRps + budget.signerRps).toBeLessThanOrEqual(total + 1e-9);
          expect(worstCaseRps(budget)).toBeLessThanOrEqual(total + 1e-9);
          // Rounding down to 0.01 rps per instance wastes less than 0.01 x instances.
          expect(total - signer - budget.collectConcurrency * budget.collectRps).toBeLessThan(0.01 * concurrency + 1e-9);
        },
      ),
    );
  });

  it('caps the signer: reserved concurrency x per-instance bucket stays within its reserve', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 50, noNaN: true }), fc.integer({ min: 1, max: 100 }), (signer, instances) => {
        fc.pre(signer / instances >= 0.01);
        const budget = chainRateBudget(1000, 4, signer, { signerConcurrency: instances });
        expect(budget.signerConcurrency * budget.signerInstanceRps).toBeLessThanOrEqual(signer + 1e-9);
        expect(budget.consumers.map((c) => c.name)).toEqual(['collect', 'sign-revocation']);
      }),
    );
    expect(chainRateBudget(20, 4, 2, { signerConcurrency: 2 })).toMatchObject({ signerInstanceRps: 1, collectRps: 4.5 });
    expect(worstCaseRps(chainRateBudget(20, 4, 2, { signerConcurrency: 2 }))).toBe(20);
  });

  it('caps the report worker: its instances x per-instance bucket stay within the report reserve, and collect gets the rest', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 20, noNaN: true }), fc.integer({ min: 1, max: 50 }), (report, instances) => {
        fc.pre(report / instances >= 0.01);
        const budget = chainRateBudget(100, 4, 2, { reportRps: report, reportConcurrency: instances });
        expect(budget.reportConcurrency * budget.reportInstanceRps).toBeLessThanOrEqual(report + 1e-9);
        expect(budget.consumers.map((c) => c.name)).toEqual(['collect', 'sign-revocation', 'daily-report']);
        expect(worstCaseRps(budget)).toBeLessThanOrEqual(100 + 1e-9);
      }),
    );
    expect(chainRateBudget(20, 4, 2, { reportRps: 1 })).toMatchObject({ reportInstanceRps: 1, collectRps: 4.25 });
  });

  it('defaults: 20 rps, 4 collect instances, 2 rps reserved for the signer', () => {
    const budget = chainRateBudget(20, 4, 2);
    expect(budget.collectRps).toBe(4.5);
    expect(budget.pollsPerHour).toBe(Math.floor(((4 * 4.5) / REQUESTS_PER_POLL) * 3600));
  });

  it('stage defaults: collect on the fewest instances SQS allows, each a larger share, the same tier rate', () => {
    expect(DEFAULT_COLLECT_CONCURRENCY).toBe(MIN_EVENT_SOURCE_CONCURRENCY);
    const rate = load({ stage: 'devnet' }).rate;
    expect(rate).toMatchObject({ totalRps: 20, collectConcurrency: 2, collectRps: 8.5, signerRps: 2, reportRps: 1 });
    expect(worstCaseRps(rate)).toBe(20);
    // The tier sustains what 4 x 4.25 did: fewer instances cost no throughput.
    expect(rate.pollsPerHour).toBe(chainRateBudget(20, 4, 2, { reportRps: 1, signerConcurrency: 2 }).pollsPerHour);
    // A paced instance is billed ~1/collectRps s per request: half of what 4 instances at 4.25 were.
    expect(1 / rate.collectRps).toBeCloseTo(0.5 / chainRateBudget(20, 4, 2, { reportRps: 1 }).collectRps, 6);
    expect(load({ stage: 'devnet', collectConcurrency: 4 }).rate.collectRps).toBe(4.25);
  });

  it('refuses a budget that leaves nothing for collect, or a concurrency SQS does not accept', () => {
    expect(() => chainRateBudget(2, 4, 2)).toThrow(RangeError);
    expect(() => chainRateBudget(20, 1, 2)).toThrow(/collectConcurrency/);
  });
});
