import { describe, expect, it } from 'vitest';
import type { createRevokePageHandler } from '../../../../functions/handlers/revoke-page';
import { ActionLinks } from '../../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';
import { RevocationInvokeError } from '../../../../functions/web/errors';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import { memoryCounters } from '../../../../functions/shared/observability';
import { LambdaRevocationSigner, type InvokeAnswer } from '../../../../functions/web/lambdaRevocationSigner';
import type { RevocationSigner } from '../../../../functions/web/revocationSigner';
import type { InvokeCommand } from '@aws-sdk/client-lambda';
import { lambdaContext } from '../../../../local/lambdaContext';
import { startLambdaHttpServer } from '../../../../local/http/lambdaHttpAdapter';
import { revokePageOf } from '../../../support/revocation/linkPages';
import { formOf, getPage, HOUR, LINK_SECRET, revocationWorld, submitForm, titleOf } from '../../../support/revocation/revocationWorld';

const world = revocationWorld();

async function delegatesOf(account: string): Promise<string[]> {
  return (await world.control.account(account)).delegates.map((d) => d.address);
}

function expectSecurityHeaders(headers: Headers): void {
  expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'; frame-ancestors 'none'/);
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
}

/** An account `label` tracked with one delegate, `bot`, and the confirmation form of that delegate's revoke link. */
async function botWithForm(label: string) {
  const account = await world.trackAccount({ label, delegates: ['bot'] });
  const delegate = account.delegates[0]!;
  const form = formOf(await getPage(world.revokeLink(account.address, delegate.address)));
  return { account, delegate, form };
}

describe('revoke page over HTTP, against the simulator', () => {
  it('GET shows the confirmation; POST revokes; the delegate is gone, audited and reported', async () => {
    const account = await world.trackAccount({ label: 'happy', delegates: ['trading-bot'] });
    const delegate = account.delegates[0]!;
    const link = world.revokeLink(account.address, delegate.address);

    const page = await getPage(link);
    expect(page.status).toBe(200);
    expectSecurityHeaders(page.headers);
    expect(titleOf(page)).toBe('Revoke this API key?');
    expect(page.html).toContain('happy');
    expect(page.html).toContain('trading-bot');
    expect(page.html).toContain(delegate.address);
    expect(page.html).toContain('Open orders and open positions stay as they are');
    expect(await delegatesOf(account.address)).toContain(delegate.address);

    const form = formOf(page);
    expect(form.action).toBe(`${world.server.url}/revoke`);
    expect(Object.keys(form.fields).sort()).toEqual(['csrf', 'token']);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expectSecurityHeaders(done.headers);
    expect(titleOf(done)).toBe('API key revoked');
    expect(done.html).toContain('A confirmation email is on its way');
    expect(await delegatesOf(account.address)).not.toContain(delegate.address);

    const audit = await world.repos.audit.listForAccount(account.address, 10);
    expect(audit.map((a) => a.kind)).toEqual(['outcome', 'intent']);
    expect(audit[0]).toMatchObject({
      action: 'revoke-delegate',
      outcome: 'revoked',
      delegate: delegate.address,
      nonce: 1,
      txSignature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    });
    expect(audit[1]).toMatchObject({ outcome: 'submitting', txHash: audit[0]?.txHash, txSignature: audit[0]?.txSignature });
    expect((await world.control.account(account.address)).nonce).toBe(1);

    await world.notify.drain();
    const result = world.notified.filter((m) => m.account === account.address);
    expect(result).toEqual([
      expect.objectContaining({
        kind: 'revocation-result',
        outcome: 'revoked',
        delegate: { address: delegate.address, name: 'trading-bot' },
        nonce: 1,
        transactionSignature: audit[0]?.txSignature,
      }),
    ]);

    // The success page labels the signature-sized value for what it is.
    expect(done.html).toContain('<dt>Transaction signature</dt>');
    expect(done.html).toContain('not its hash');

    const replay = await submitForm(form.action, form.fields);
    expect(replay.status).toBe(409);
    expect(titleOf(replay)).toBe('This link was used: the API key was revoked');

    // A used link's GET says at once that it was used and what happened (kept on the token), not "Please confirm".
    const again = await getPage(link);
    expect(again.status).toBe(409);
    expect(titleOf(again)).toBe('This link was used: the API key was revoked');
    expect(again.html).not.toMatch(/<form/);
    expect(again.html).toContain('Revoked: the chain accepted the transaction');
    expect(again.html).toContain(audit[0]?.txSignature ?? 'missing');
  });

  it('a used link whose account is no longer tracked still says what it did; an unused one says the account is not tracked', async () => {
    const { account, form } = await botWithForm('untracked-later');
    expect(titleOf(await submitForm(form.action, form.fields))).toBe('API key revoked');
    const unused = await world.trackAccount({ label: 'untracked-unused', delegates: ['bot'] });
    const unusedLink = world.revokeLink(unused.address, unused.delegates[0]!.address);
    expect((await world.repos.accounts.remove(account.address)).kind).toBe('removed');
    expect((await world.repos.accounts.remove(unused.address)).kind).toBe('removed');

    // Its GET and a replayed POST: what the link did, not "Nothing was changed".
    const usedLink = `${form.action}?token=${encodeURIComponent(form.fields['token'] ?? '')}`;
    for (const page of [await getPage(usedLink), await submitForm(form.action, form.fields)]) {
      expect(page.status).toBe(409);
      expect(titleOf(page)).toBe('This link was used: the API key was revoked');
      expect(page.html).toContain('Revoked: the chain accepted the transaction');
      expect(page.html).not.toContain('Nothing was changed');
      expect(page.html).not.toMatch(/<form/);
    }
    const never = await getPage(unusedLink);
    expect(never.status).toBe(404);
    expect(titleOf(never)).toBe('Account not tracked');
    expect(never.html).toContain('Nothing was changed');
    expect(never.html).not.toMatch(/<form/);
  });

  it('does not promise a confirmation email when every recipient is suppressed', async () => {
    const account = await world.trackAccount({ label: 'unsubscribed', delegates: ['bot'] });
    for (const email of account.emails) await world.repos.suppressions.suppress(email, 'unsubscribe');
    const page = await getPage(world.revokeLink(account.address, account.delegates[0]!.address));
    const form = formOf(page);
    const done = await submitForm(form.action, form.fields);
    expect(titleOf(done)).toBe('API key revoked');
    expect(done.html).not.toContain('confirmation email is on its way');
    expect(done.html).toContain('No confirmation email is sent');
  });

  it('does not promise a confirmation email when every recipient turned security notices off', async () => {
    const account = await world.trackAccount({ label: 'security-off', delegates: ['bot'] });
    for (const email of account.emails) await world.repos.preferences.optOut(email, ['security']);
    const form = formOf(await getPage(world.revokeLink(account.address, account.delegates[0]!.address)));
    const done = await submitForm(form.action, form.fields);
    expect(titleOf(done)).toBe('API key revoked');
    expect(done.html).not.toContain('confirmation email is on its way');
    expect(done.html).toContain('No confirmation email is sent');
  });

  it('a plain GET (as a mail scanner does) revokes and consumes nothing', async () => {
    const account = await world.trackAccount({ label: 'scanner', delegates: ['bot'] });
    const delegate = account.delegates[0]!;
    const link = world.revokeLink(account.address, delegate.address);
    for (let i = 0; i < 3; i++) expect((await getPage(link)).status).toBe(200);
    const head = await fetch(link, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await delegatesOf(account.address)).toContain(delegate.address);
    expect(await world.repos.audit.listForAccount(account.address, 10)).toEqual([]);
    const done = await submitForm(...(Object.values(formOf(await getPage(link))) as [string, Record<string, string>]));
    expect(done.status).toBe(200);
  });

  it('refuses a cross-origin POST and a POST without the form value, consuming nothing', async () => {
    const { account, delegate, form } = await botWithForm('csrf');

    const evil = await submitForm(form.action, form.fields, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expectSecurityHeaders(evil.headers);
    const crossSite = await submitForm(form.action, form.fields, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const noCsrf = await submitForm(form.action, { token: form.fields['token'] ?? '' });
    expect(noCsrf.status).toBe(403);
    const wrongCsrf = await submitForm(form.action, { ...form.fields, csrf: 'A'.repeat(43) });
    expect(wrongCsrf.status).toBe(403);
    const asJson = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(form.action).origin },
      body: JSON.stringify(form.fields),
    });
    expect(asJson.status).toBe(400);
    // A script sending none of Origin, Referer, Sec-Fetch-Site is refused whatever the form holds.
    expect((await submitForm(form.action, form.fields, {})).status).toBe(403);

    expect(await delegatesOf(account.address)).toContain(delegate.address);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(await delegatesOf(account.address)).not.toContain(delegate.address);
  });

  it('refuses expired, altered and other-purpose links', async () => {
    const account = await world.trackAccount({ label: 'expired', delegates: ['bot'] });
    const delegate = account.delegates[0]!;
    const expired = world.revokeLink(account.address, delegate.address, Date.now() - 73 * HOUR);
    const page = await getPage(expired);
    expect(page.status).toBe(410);
    expect(titleOf(page)).toBe('This link has expired');
    expectSecurityHeaders(page.headers);

    // A form kept open past the link's expiry.
    const fresh = formOf(await getPage(world.revokeLink(account.address, delegate.address)));
    const staleToken = new URL(expired).searchParams.get('token') ?? '';
    expect((await submitForm(fresh.action, { ...fresh.fields, token: staleToken })).status).toBe(410);

    const token = fresh.fields['token'] ?? '';
    const altered = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    expect((await getPage(`${world.server.url}/revoke?token=${encodeURIComponent(altered)}`)).status).toBe(400);
    expect((await getPage(`${world.server.url}/revoke`)).status).toBe(400);
    const unsubscribe = world.links.build({ purpose: 'unsubscribe', account: account.address, email: account.emails[0]! }, Date.now());
    const asRevoke = `${world.server.url}/revoke?token=${encodeURIComponent(new URL(unsubscribe).searchParams.get('token') ?? '')}`;
    expect((await getPage(asRevoke)).status).toBe(400);

    expect(await delegatesOf(account.address)).toContain(delegate.address);
  });

  it('explains that an account without a signer cannot be revoked from a link', async () => {
    const account = await world.trackAccount({ label: 'nosigner', delegates: ['bot'], signer: 'none' });
    const delegate = account.delegates[0]!;
    const link = world.revokeLink(account.address, delegate.address);
    const page = await getPage(link);
    expect(page.status).toBe(409);
    expect(titleOf(page)).toBe('One-click revocation is not set up for this account');
    expect(page.html).toContain('--signer');
    expect(page.html).not.toContain('<form');
  });

  it('shows a clear page when the signer variable is missing, and the link keeps working once it is set', async () => {
    const account = await world.trackAccount({ label: 'missingkey', delegates: ['bot'] });
    const delegate = account.delegates[0]!;
    const variable = Object.entries(world.signerEnv).find(([, v]) => v === account.privateKey)?.[0] ?? '';
    world.signerEnv[variable] = undefined;
    const form = formOf(await getPage(world.revokeLink(account.address, delegate.address)));
    const refused = await submitForm(form.action, form.fields);
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('the account&#39;s signer could not be used');
    expect(refused.html).not.toContain(variable);
    const [audit] = await world.repos.audit.listForAccount(account.address, 1);
    expect(audit).toMatchObject({ outcome: 'not-configured', message: expect.stringContaining(`environment variable ${variable} is not set`) });

    world.signerEnv[variable] = account.privateKey;
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(await delegatesOf(account.address)).not.toContain(delegate.address);
  });

  it('says "already revoked" (success) when the delegate is gone before the click', async () => {
    const { account, delegate, form } = await botWithForm('gone');
    await world.control.removeDelegate(account.address, delegate.address);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('Already revoked');
    expect((await world.control.account(account.address)).nonce).toBe(0);
  });

  it('revokes two delegates of one account concurrently, each with its own nonce', async () => {
    const account = await world.trackAccount({ label: 'concurrent', delegates: ['bot-a', 'bot-b'] });
    const forms = await Promise.all(account.delegates.map(async (d) => formOf(await getPage(world.revokeLink(account.address, d.address)))));
    const results = await Promise.all(forms.map((f) => submitForm(f.action, f.fields)));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await delegatesOf(account.address)).toEqual([]);
    const audit = await world.repos.audit.listForAccount(account.address, 10);
    const outcomes = audit.filter((a) => a.kind === 'outcome');
    expect(outcomes.map((a) => a.outcome)).toEqual(['revoked', 'revoked']);
    expect(outcomes.map((a) => a.nonce).sort()).toEqual([1, 2]);
    expect(audit.filter((a) => a.kind === 'intent')).toHaveLength(2);
    expect((await world.control.account(account.address)).nonce).toBe(2);
  });

  it('leaves the link usable when the chain is down (nothing sent), and works once it is back', async () => {
    const { account, delegate, form } = await botWithForm('chaindown');
    await world.control.setFaults({ routes: { 'account-nonce': { error500: 1 } } });
    try {
      const down = await submitForm(form.action, form.fields);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('30');
      expect(down.html).toContain('Your link still works');
    } finally {
      await world.control.resetFaults();
    }
    expect(await delegatesOf(account.address)).toContain(delegate.address);
    const audit = await world.repos.audit.listForAccount(account.address, 10);
    expect(audit.map((a) => a.outcome)).toEqual(['chain-unreachable']);

    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(await delegatesOf(account.address)).not.toContain(delegate.address);
  });

  it("shows the chain's refusal, escaped, with 502", async () => {
    const { account, delegate, form } = await botWithForm('refused');
    // Another transaction lands after every nonce read: the one stale-nonce retry is used up and the refusal is final.
    world.afterNonceRead = async (address, nonce) => {
      if (address === account.address) await world.control.setNonce(address, nonce + 1);
    };
    try {
      const refused = await submitForm(form.action, form.fields);
      expect(refused.status).toBe(502);
      expect(titleOf(refused)).toBe('The chain refused the revocation');
      expect(refused.html).toMatch(/stale nonce \d+ for 0x[0-9a-fA-F]{40}: it must be greater than \d+/);
    } finally {
      world.afterNonceRead = null;
    }
    expect(await delegatesOf(account.address)).toContain(delegate.address);
    expect((await submitForm(form.action, form.fields)).status).toBe(409);
  });

  it('answers other methods with 405 and unknown paths with 404', async () => {
    const res = await fetch(`${world.server.url}/revoke`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('says plainly that a link whose signing call failed is used and the result unknown, and what to do', async () => {
    const account = await world.trackAccount({ label: 'signer-call-failed', delegates: ['bot'] });
    const delegate = account.delegates[0]!;
    const { server, links } = await pageWith({
      revoke: async () => {
        throw new RevocationInvokeError('function-error', 'Task timed out after 30.00 seconds');
      },
    });
    try {
      const form = formOf(await getPage(links.build({ purpose: 'revoke', account: account.address, delegate: delegate.address }, Date.now())));
      const failed = await submitForm(form.action, form.fields);
      expect(failed.status).toBe(500);
      expect(titleOf(failed)).toBe('Result unknown: check before trying again');
      expect(failed.html).toContain('This link has been used and will not work again');
      expect(failed.html).toContain('it is not known whether the revocation was sent');
      expect(failed.html).toContain(`sentinel link revoke ${account.address} ${delegate.address}`);
      expect(failed.html).not.toContain('Task timed out');
      // The link stays used.
      expect((await submitForm(form.action, form.fields)).status).toBe(409);
    } finally {
      await server.close();
    }
  });

  /**
   * A page whose signer is the Lambda adapter over a client that throws `failures` (by error name)
   * in turn, then invokes the real signing handler as Lambda would. Only this adapter's error
   * paths are simulated; the tables, the page and the signing side are real.
   */
  async function pageWithLambdaClient(failures: string[], retry = { forMs: 300, firstDelayMs: 50 }) {
    const counters = memoryCounters();
    const signing = createSignRevocationHandler(world.signDeps);
    const invoked: string[] = [];
    const client = {
      async send(command: InvokeCommand): Promise<InvokeAnswer> {
        const failure = failures.shift();
        invoked.push(failure ?? 'ran');
        if (failure) throw Object.assign(new Error(`${failure} from Lambda`), { name: failure });
        const event = JSON.parse(new TextDecoder().decode(command.input.Payload as Uint8Array)) as unknown;
        const answer = await signing(event, lambdaContext('sign-revocation'));
        return { StatusCode: 200, Payload: new TextEncoder().encode(JSON.stringify(answer)) };
      },
    };
    const signer = new LambdaRevocationSigner(client, 'sign-revocation', { ...retry, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) });
    const page = await pageWith(signer, counters);
    return { ...page, counters, invoked };
  }

  async function pageWith(signer: RevocationSigner, counters = memoryCounters()) {
    const handler: { page?: ReturnType<typeof createRevokePageHandler> } = {};
    const server = await startLambdaHttpServer({
      routes: [{ path: '/revoke', functionName: 'revoke-page', handler: (event, context) => handler.page!(event, context) }],
    });
    const links = new ActionLinks(new LinkTokenCodec(LINK_SECRET), server.url);
    handler.page = revokePageOf({ repos: world.repos, links, secret: LINK_SECRET, publicBaseUrl: server.url, now: Date.now, signer, counters });
    return { server, links };
  }

  it('a throttled signer says "busy, try again" and gives the link back; the same link then revokes', async () => {
    const account = await world.trackAccount({ label: 'throttled', delegates: ['bot'] });
    const delegate = account.delegates[0]!;
    // Throttled for longer than the retry window, then free.
    const { server, links, counters, invoked } = await pageWithLambdaClient(Array(40).fill('TooManyRequestsException'));
    try {
      const form = formOf(await getPage(links.build({ purpose: 'revoke', account: account.address, delegate: delegate.address }, Date.now())));
      const busy = await submitForm(form.action, form.fields);
      expect(busy.status).toBe(503);
      expect(titleOf(busy)).toBe('Busy: try again in a moment');
      expect(busy.html).toContain('Your link still works');
      expect(invoked.length).toBeGreaterThan(1);
      expect(invoked.every((i) => i === 'TooManyRequestsException')).toBe(true);
      expect(counters.totals.get('RevocationSignerThrottled')).toBe(1);
      expect(await delegatesOf(account.address)).toContain(delegate.address);

      invoked.length = 0;
      const { server: free } = await pageWithLambdaClient([]);
      try {
        const again = await submitForm(`${free.url}/revoke`, form.fields, { origin: free.url, 'sec-fetch-site': 'same-origin' });
        expect(titleOf(again)).toBe('API key revoked');
      } finally {
        await free.close();
      }
      expect(await delegatesOf(account.address)).not.toContain(delegate.address);
    } finally {
      await server.close();
    }
  });

  it('a throttled invoke that goes through within the retry window revokes at once', async () => {
    const account = await world.trackAccount({ label: 'throttled-briefly', delegates: ['bot'] });
    const delegate = account.delegates[0]!;
    const { server, links, invoked } = await pageWithLambdaClient(['TooManyRequestsException', 'TooManyRequestsException'], { forMs: 3_000, firstDelayMs: 20 });
    try {
      const form = formOf(await getPage(links.build({ purpose: 'revoke', account: account.address, delegate: delegate.address }, Date.now())));
      const done = await submitForm(form.action, form.fields);
      expect(titleOf(done)).toBe('API key revoked');
      expect(invoked).toEqual(['TooManyRequestsException', 'TooManyRequestsException', 'ran']);
      expect(await delegatesOf(account.address)).not.toContain(delegate.address);
    } finally {
      await server.close();
    }
  });

  it('a missing or denied signer reads "unavailable", counts the alarm metric and gives the link back', async () => {
    for (const failure of ['ResourceNotFoundException', 'AccessDeniedException']) {
      const account = await world.trackAccount({ label: `offline-${failure}`, delegates: ['bot'] });
      const delegate = account.delegates[0]!;
      const { server, links, counters } = await pageWithLambdaClient([failure]);
      try {
        const form = formOf(await getPage(links.build({ purpose: 'revoke', account: account.address, delegate: delegate.address }, Date.now())));
        const down = await submitForm(form.action, form.fields);
        expect(down.status, failure).toBe(503);
        expect(titleOf(down)).toBe('One-click revocation is unavailable');
        expect(down.html).toContain('the operator has been alerted');
        expect(down.html).toContain('Your link still works');
        expect(counters.totals.get('RevocationSignerUnavailable')).toBe(1);
        // The link was given back: the next confirmation (the signer reachable again) revokes.
        const done = await submitForm(form.action, form.fields);
        expect(titleOf(done)).toBe('API key revoked');
      } finally {
        await server.close();
      }
    }
  });

  it('a lost answer (network error or 5xx) keeps the link used: the result is unknown', async () => {
    for (const failure of ['TimeoutError', 'ServiceException']) {
      const account = await world.trackAccount({ label: `lost-${failure}`, delegates: ['bot'] });
      const delegate = account.delegates[0]!;
      const { server, links, counters, invoked } = await pageWithLambdaClient([failure]);
      try {
        const form = formOf(await getPage(links.build({ purpose: 'revoke', account: account.address, delegate: delegate.address }, Date.now())));
        const failed = await submitForm(form.action, form.fields);
        expect(failed.status).toBe(500);
        expect(titleOf(failed)).toBe('Result unknown: check before trying again');
        expect(invoked).toEqual([failure]);
        expect(counters.totals.size).toBe(0);
        expect((await submitForm(form.action, form.fields)).status).toBe(409);
      } finally {
        await server.close();
      }
    }
  });
});
