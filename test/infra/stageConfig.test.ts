import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAIN_REST_BASE, STAGE_NAMES } from '../../infra/config/chainEnvironments';
import { chainRateBudget, REQUESTS_PER_POLL } from '../../infra/config/chainRateBudget';
import { loadStageConfig, StageConfigError } from '../../infra/config/stageConfig';

const load = (context: Record<string, unknown>) => loadStageConfig((key) => context[key]);

describe('loadStageConfig', () => {
  it.each(STAGE_NAMES)('%s: own prefix, node at the REST base, indexer under the configured prefix', (stage) => {
    const config = load({ stage });
    expect(config.prefix).toBe(`sentinel-${stage}-`);
    expect(config.chain.nodeUrl).toBe(CHAIN_REST_BASE[stage]);
    expect(config.chain.indexerUrl).toBe(`${CHAIN_REST_BASE[stage]}/indexer`);
    expect(load({ stage, indexerPath: '/history/v1' }).chain.indexerUrl).toBe(`${CHAIN_REST_BASE[stage]}/history/v1`);
    expect(load({ stage, indexerPath: '' }).chain.indexerUrl).toBe(CHAIN_REST_BASE[stage]);
  });

  it('names the context key that is wrong', () => {
    const keyOf = (context: Record<string, unknown>): string => {
      try {
        load(context);
      } catch (err) {
        expect(err).toBeInstanceOf(StageConfigError);
        return (err as StageConfigError).key;
      }
      throw new Error('accepted');
    };
    expect(keyOf({})).toBe('stage');
    expect(keyOf({ stage: 'mainnet' })).toBe('stage');
    expect(keyOf({ stage: 'beta', chainRps: 'fast' })).toBe('chainRps');
    expect(keyOf({ stage: 'beta', collectConcurrency: 1 })).toBe('collectConcurrency');
    expect(keyOf({ stage: 'beta', mailFrom: 'not-an-address' })).toBe('mailFrom');
    expect(keyOf({ stage: 'beta', ownerKeys: ['Desk A'] })).toBe('ownerKeys');
    expect(keyOf({ stage: 'beta', ownerKeyArns: 'alias/desk-b' })).toBe('ownerKeyArns');
    expect(keyOf({ stage: 'beta', ownerKeys: '["unterminated' })).toBe('ownerKeys');
    expect(keyOf({ stage: 'beta', logRetentionDays: 31 })).toBe('logRetentionDays');
    expect(keyOf({ stage: 'beta', domainName: 'links.example.com' })).toBe('certificateArn');
    expect(keyOf({ stage: 'beta', indexerPath: 'indexer' })).toBe('indexerPath');
    expect(keyOf({ stage: 'beta', chainRps: 2, signerRps: 2 })).toBe('chainRps');
  });

  it('reads lists as JSON arrays (cdk.json) or comma-separated text (-c key=a,b)', () => {
    expect(load({ stage: 'devnet', ownerKeys: ['desk-a', 'desk-b'] }).ownerKeys).toEqual(['desk-a', 'desk-b']);
    expect(load({ stage: 'devnet', ownerKeys: '["desk-a","desk-b"]' }).ownerKeys).toEqual(['desk-a', 'desk-b']);
    expect(load({ stage: 'devnet', ownerKeys: 'desk-a, desk-b' }).ownerKeys).toEqual(['desk-a', 'desk-b']);
    expect(load({ stage: 'devnet' }).ownerKeys).toEqual([]);
  });

  it('derives the SES identity from the sender unless one is given', () => {
    expect(load({ stage: 'beta', mailFrom: 'alerts@mail.example.org' }).mail.identity).toBe('mail.example.org');
    expect(load({ stage: 'beta', mailFrom: 'alerts@mail.example.org', sesIdentity: 'alerts@mail.example.org' }).mail.identity).toBe(
      'alerts@mail.example.org',
    );
  });

  it('takes a custom domain only with its certificate', () => {
    const config = load({ stage: 'beta', domainName: 'links.example.com', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/abc' });
    expect(config.domain).toEqual({ name: 'links.example.com', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/abc' });
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
          // Rounding down to 0.01 rps per instance wastes less than 0.01 x instances.
          expect(total - signer - budget.collectConcurrency * budget.collectRps).toBeLessThan(0.01 * concurrency + 1e-9);
        },
      ),
    );
  });

  it('defaults: 20 rps, 4 collect instances, 2 rps reserved for the signer', () => {
    const budget = chainRateBudget(20, 4, 2);
    expect(budget.collectRps).toBe(4.5);
    expect(budget.pollsPerHour).toBe(Math.floor(((4 * 4.5) / REQUESTS_PER_POLL) * 3600));
  });

  it('refuses a budget that leaves nothing for collect, or a concurrency SQS does not accept', () => {
    expect(() => chainRateBudget(2, 4, 2)).toThrow(RangeError);
    expect(() => chainRateBudget(20, 1, 2)).toThrow(/collectConcurrency/);
  });
});
