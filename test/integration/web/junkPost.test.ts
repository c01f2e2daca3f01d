import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { RevocationRequest } from '../../../functions/domain/revocationOutcome';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { createRepositories } from '../../../functions/store/repositories';
import { CsrfTokens } from '../../../functions/web/csrfToken';
import type { RevocationSigner } from '../../../functions/web/revocationSigner';
import { testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';
import { revokePageOf } from '../../support/revocation/linkPages';

const SECRET = 'junk-post-tests-link-secret-0123456789abcdef';
const BASE = 'https://links.example.com';
const tables = testTables();

function post(body: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/revoke',
    rawQueryString: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE, 'sec-fetch-site': 'same-origin' },
    body,
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST', path: '/revoke', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'flood' } },
  } as unknown as APIGatewayProxyEventV2;
}

/** The revoke page on DynamoDB Local, counting every DynamoDB request it sends and every signer invoke. */
function countingPage() {
  const calls = { dynamodb: 0, invokes: 0 };
  const client = tables.client;
  client.middlewareStack.add(
    (next) => async (args) => {
      calls.dynamodb++;
      return next(args);
    },
    { step: 'initialize', name: 'countDynamoDbCalls' },
  );
  const repos = createRepositories(client, tables.prefix);
  const signer: RevocationSigner = {
    revoke(request: RevocationRequest) {
      calls.invokes++;
      return Promise.reject(new Error(`no signer in this test (${request.account})`));
    },
  };
  const links = new ActionLinks(new LinkTokenCodec(SECRET), BASE);
  const handler = revokePageOf({ repos, links, secret: SECRET, publicBaseUrl: BASE, now: Date.now, signer });
  return { calls, handler, links };
}

describe('revoke page under a flood of junk POSTs', () => {
  it('answers a POST whose token is missing, malformed or forged without a DynamoDB call or an invoke', async () => {
    const { calls, handler, links } = countingPage();
    const real =
      new URL(links.build({ purpose: 'revoke', account: testAddress(1, 0x1), delegate: testAddress(2, 0x2) }, Date.now())).searchParams.get('token') ?? '';
    const forged = `${real.slice(0, -43)}${'A'.repeat(42)}w`;
    const junk = [
      '',
      'token=',
      'token=junk&csrf=x',
      `token=v1.e30.${'A'.repeat(43)}&csrf=x`,
      `token=${encodeURIComponent(forged)}&csrf=x`,
      'List-Unsubscribe=One-Click',
    ];
    for (const body of junk) {
      const answer = await handler(post(body));
      expect([400, 403], body).toContain(answer.statusCode);
    }
    expect(calls).toEqual({ dynamodb: 0, invokes: 0 });

    // The counter sees what a real link costs: the same page, a valid token, reaches DynamoDB.
    const genuine = await handler(post(`token=${encodeURIComponent(real)}&csrf=${new CsrfTokens(SECRET).issue('revoke', tokenIdOf(real))}`));
    expect(genuine.statusCode).toBe(404);
    expect(calls.dynamodb).toBeGreaterThan(0);
    expect(calls.invokes).toBe(0);
  });
});

function tokenIdOf(token: string): string {
  const verified = new LinkTokenCodec(SECRET).verify('revoke', token);
  if (verified.kind !== 'valid') throw new Error('the test token does not verify');
  return (verified.payload as { tokenId: string }).tokenId;
}
