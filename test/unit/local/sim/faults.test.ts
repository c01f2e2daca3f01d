import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalData, delegatePayload, signedBody } from '../../../support/sim/signing';
import { request, testSimPerFile } from '../../../support/sim/testSim';

const sim = testSimPerFile();
const account = `0x${'12'.repeat(20)}`;
const nonceUrl = () => `${sim.nodeUrl}/account-nonce?account=${account}`;
const portfolioUrl = () => `${sim.indexerUrl}/portfolio?account=${account}&from=0&to=0&interval=1d`;

afterEach(async () => {
  await sim.control.resetFaults();
});

describe('fault profiles', () => {
  it('answer 500 text/plain, then recover when the script is used up', async () => {
    await sim.control.setFaults({ global: { script: ['error500', 'error500'] } });
    for (let i = 0; i < 2; i += 1) {
      const reply = await request(nonceUrl());
      expect(reply.status).toBe(500);
      expect(reply.contentType).toMatch(/^text\/plain/);
    }
    expect((await request(nonceUrl())).json).toEqual({ nonce: 0, deferredNonce: 0 });
  });

  it('answer 429 with Retry-After', async () => {
    await sim.control.setFaults({ global: { rateLimit: 1, retryAfterSeconds: 7 } });
    const reply = await request(portfolioUrl());
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('7');
  });

  it('send malformed JSON in a complete 200 response', async () => {
    await sim.control.setFaults({ routes: { portfolio: { malformed: 1 } } });
    const reply = await request(portfolioUrl());
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^application\/json/);
    expect(reply.text.length).toBeGreaterThan(0);
    expect(reply.json).toBeUndefined();
  });

  it('truncate a body by dropping the connection mid-way', async () => {
    await sim.control.setFaults({ routes: { portfolio: { truncate: 1 } } });
    const response = await fetch(portfolioUrl());
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('hang until the client gives up', async () => {
    await sim.control.setFaults({ routes: { 'account-nonce': { hang: 1 } } });
    await expect(fetch(nonceUrl(), { signal: AbortSignal.timeout(300) })).rejects.toThrow(/abort|timeout/i);
  });

  it('apply per route, replacing the global rule there', async () => {
    await sim.control.setFaults({ global: { error500: 1 }, routes: { 'account-nonce': { latencyMs: 5, jitterMs: 5 } } });
    expect((await request(portfolioUrl())).status).toBe(500);
    expect((await request(nonceUrl())).status).toBe(200);
    await sim.control.resetFaults();
    expect((await request(portfolioUrl())).status).toBe(200);
  });

  it('draw rates from the seed: a 50 % rate fails some requests and not others', async () => {
    await sim.control.setFaults({ global: { error500: 0.5 } });
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i += 1) statuses.add((await request(nonceUrl())).status);
    expect([...statuses].sort()).toEqual([200, 500]);
  });

  it('lose the answer of a transaction that was executed (truncate after handling)', async () => {
    const owner = new Wallet(`0x${'77'.repeat(32)}`);
    await sim.control.setFaults({ routes: { transaction: { script: ['truncate'] } } });
    const body = await signedBody(owner, canonicalData(owner.address, 'DelegateManager', delegatePayload(`0x${'34'.repeat(20)}`, null, null, null), 1));
    const response = await fetch(`${sim.nodeUrl}/transaction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await expect(response.text()).rejects.toThrow();
    expect((await request(`${sim.nodeUrl}/account-nonce?account=${owner.address}`)).json).toMatchObject({ nonce: 1 });
  });

  it('refuse an invalid profile and leave the control API unaffected', async () => {
    await expect(sim.control.setFaults({ global: { error500: 0.7, rateLimit: 0.7 } })).rejects.toMatchObject({ status: 400 });
    await expect(sim.control.setFaults({ routes: { candles: {} } } as never)).rejects.toMatchObject({ status: 400 });
    await sim.control.setFaults({ global: { error500: 1 } });
    expect((await sim.control.state()).faults).toMatchObject({ global: { error500: 1 } });
  });
});
