import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loadSettings } from '../config/settings';
import { ActionLinks, LINK_PATHS } from '../links/actionLinks';
import { LinkTokenCodec } from '../links/linkToken';
import { linkSecretFrom, repositoriesFrom, required } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { preferencesPage, type PreferencesPageDeps } from '../services/preferencesPage';
import { createObservability } from '../shared/observability';
import { CsrfTokens } from '../web/csrfToken';
import { htmlResponse } from '../web/htmlResponse';
import { pageFailureResponse } from '../web/pageFailure';
import { renderPreferencesView } from '../web/preferencesViews';
import { toWebRequest } from '../web/webRequest';

/** What `preferences-page` needs: the ports of the unsubscribe/snooze service. */
export type PreferencesPageHandlerDeps = PreferencesPageDeps;

/**
 * The public `/unsubscribe` (incl. RFC 8058 one-click POST) and `/snooze` endpoints (HTTP API
 * payload 2.0 events); every answer is an HTML page with the security headers. Never logs the
 * token or the URL.
 */
export function createPreferencesPageHandler(deps: PreferencesPageHandlerDeps) {
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  const actions = { unsubscribe: `${base}${LINK_PATHS.unsubscribe}`, snooze: `${base}${LINK_PATHS.snooze}` };
  return async (event: APIGatewayProxyEventV2, _context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const parsed = toWebRequest(event);
    try {
      const view = parsed.kind === 'request' ? await preferencesPage(deps, parsed.request) : { kind: 'bad-request' as const, reason: parsed.reason };
      const page = renderPreferencesView(view, actions);
      const response = htmlResponse(page.status, page.html, page.headers);
      return parsed.kind === 'request' && parsed.request.method === 'HEAD' ? { ...response, body: '' } : response;
    } catch (error) {
      deps.log.error('preferences page failed', { error: error instanceof Error ? error.message : String(error) });
      return pageFailureResponse();
    }
  };
}

/** Deps from the Lambda environment: suppressions, alerts and tokens tables and the link secret. */
export async function preferencesPageDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<PreferencesPageHandlerDeps> {
  const settings = loadSettings(env);
  const { log } = createObservability('preferences-page');
  const repos = repositoriesFrom(settings);
  const secret = await linkSecretFrom(settings);
  const publicBaseUrl = required(settings, 'PUBLIC_BASE_URL');
  return {
    links: new ActionLinks(new LinkTokenCodec(secret), publicBaseUrl),
    csrf: new CsrfTokens(secret),
    publicBaseUrl,
    suppressions: repos.suppressions,
    alerts: repos.alerts,
    tokens: repos.tokens,
    now: Date.now,
    log,
  };
}

export const handler = lazyHandler(async () => createPreferencesPageHandler(await preferencesPageDepsFromEnv()));
