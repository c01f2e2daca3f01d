import { mailboxNotices } from '../../../functions/services/preferences/mailboxNotice';
import { sesSender } from '../../support/delivery/mailHarness';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createPreferencesPageHandler } from '../../../functions/handlers/preferences-page';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { silentLog } from '../../../functions/shared/observability';
import { createRepositories } from '../../../functions/store/repositories';
import { CsrfTokens } from '../../../functions/web/csrfToken';
import { STRICT_TRANSPORT_SECURITY } from '../../../functions/web/securityHeaders';
import { testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';

const SECRET = 'rest-api-events-link-secret-0123456789abcdef';
/** The deployed link endpoint without a custom domain: the REST API's stage URL (a path below the host). */
const BASE = 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/links';
const NOW = Date.parse('2026-11-23T12:00:00Z');
const tables = testTables();

/** What API Gateway's REST Lambda proxy integration sends (payload 1.0) for a request to `url`. */
function restEvent(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body: string | null): APIGatewayProxyEvent {
  const parsed = new URL(url);
  const resource = parsed.pathname.replace(/^\/links/, '');
  const query = [...parsed.searchParams.entries()];
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query.length ? Object.fromEntries(query) : null,
    multiValueQueryStringParameters: query.length ? Object.fromEntries(query.map(([k, v]) => [k, [v]])) : null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { httpMethod: method, stage: 'links', path: parsed.pathname, resourcePath: resource },
  } as unknown as APIGatewayProxyEvent;
}

describe('the pages behind the REST API (payload 1.0 events, base URL with the stage path)', () => {
  it('serves an unsubscribe link: the confirmation page, the form POST from the same origin, and the one-click POST', async () => {
    const repos = createRepositories(tables.client, tables.prefix, { now: () => NOW, retentionMs: 86_400_000 * 365 });
    const links = new ActionLinks(new LinkTokenCodec(SECRET), BASE);
    const page = createPreferencesPageHandler({
      links,
      csrf: new CsrfTokens(SECRET),
      publicBaseUrl: BASE,
      preferences: repos.preferences,
      alerts: repos.alerts,
      history: repos.history,
      accounts: repos.accounts,
      channels: repos.channels,
      tokens: repos.tokens,
      mailbox: mailboxNotices({ sender: sesSender(), mailFrom: 'sentinel@example.com', now: Date.now }),
      now: () => NOW,
      log: silentLog,
    });
    const email = `rest+${NOW}@example.com`;
    const link = links.build({ purpose: 'unsubscribe', account: testAddress(1, 0x7e57), email, category: 'drawdown' }, NOW);
    expect(link.startsWith(`${BASE}/unsubscribe?token=`)).toBe(true);

    const shown = await page(restEvent('GET', link, { Host: 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com' }, null));
    expect(shown.statusCode).toBe(200);
    expect(shown.headers?.['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    // The form posts back to the stage URL, with the token and the anti-CSRF value.
    const html = String(shown.body);
    expect(html).toContain(`action="${BASE}/unsubscribe"`);
    const field = (name: string): string => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const form = new URLSearchParams({ token: field('token'), csrf: field('csrf') }).toString();

    const crossSite = await page(
      restEvent(
        'POST',
        `${BASE}/unsubscribe`,
        { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
        form,
      ),
    );
    expect(crossSite.statusCode).toBe(403);
    expect(await repos.preferences.optOuts(email)).toEqual([]);

    const sameSite = await page(
      restEvent(
        'POST',
        `${BASE}/unsubscribe`,
        {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
          'Sec-Fetch-Site': 'same-origin',
        },
        form,
      ),
    );
    expect(sameSite.statusCode).toBe(200);
    expect(await repos.preferences.optOuts(email)).toEqual(['drawdown']);

    const oneClick = await page(restEvent('POST', link, { 'Content-Type': 'application/x-www-form-urlencoded' }, 'List-Unsubscribe=One-Click'));
    expect(oneClick.statusCode).toBe(200);
  });
});
