import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Log } from '../shared/observability';
import { htmlResponse } from './htmlResponse';
import { pageFailureResponse } from './pageFailure';
import type { RenderedPage } from './renderedPage';
import { toWebRequest, type WebRequest } from './webRequest';
import { describeError } from '../shared/describeError';
import type { LinkPurpose } from '../domain/linkClaims';
import { actionUrl } from '../links/linkPaths';

/** The view of a request that could not be read. */
export interface BadRequestView {
  readonly kind: 'bad-request';
  readonly reason: string;
}

/** What a page handler is given besides its page service's ports. */
export interface PageHandlerDeps {
  readonly log: Log;
  /** Adds the invocation's Lambda context to the log lines (Powertools). */
  readonly addContext?: (context: Context) => void;
  /** Flushes the invocation's metrics once the page is decided. */
  readonly flushMetrics?: () => void;
}

/**
 * The shape every public page handler shares (API Gateway payload 2.0 or REST API payload 1.0 events): parse the request,
 * let the page service decide what to show (`bad-request` for a request that could not be read),
 * render it with the security headers, drop the body for HEAD. An unexpected failure is logged
 * (message only: never the token or the URL) and answered with a plain 500 page. `deps` are the
 * handler's own: its log, and the Lambda context and metrics flush when it has them.
 */
export function createPageHandler<V extends { readonly kind: string }>(
  deps: PageHandlerDeps,
  options: {
    readonly name: string;
    readonly decide: (request: WebRequest) => Promise<V>;
    /** Renders a view, or the `bad-request` page of a request that could not be read (every page has one). */
    readonly render: (view: V | BadRequestView) => RenderedPage;
  },
) {
  return async (event: APIGatewayProxyEventV2 | APIGatewayProxyEvent, context?: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    if (context) deps.addContext?.(context);
    const parsed = toWebRequest(event);
    try {
      const view = parsed.kind === 'request' ? await options.decide(parsed.request) : ({ kind: 'bad-request', reason: parsed.reason } as const);
      const page = options.render(view);
      const response = htmlResponse(page.status, page.html, page.headers);
      return parsed.kind === 'request' && parsed.request.method === 'HEAD' ? { ...response, body: '' } : response;
    } catch (error) {
      deps.log.error(`${options.name} failed`, { error: describeError(error, { audience: 'log' }) });
      return pageFailureResponse();
    } finally {
      deps.flushMetrics?.();
    }
  };
}

/**
 * A page with one form, posting back to its own link's path (`/revoke`, `/revoke-all`): a
 * `createPageHandler` whose service is given the handler's deps, and whose views are rendered with
 * the form's action URL under the public base URL.
 */
export function createFormPageHandler<D extends PageHandlerDeps & { readonly publicBaseUrl: string }, V extends { readonly kind: string }>(
  deps: D,
  page: {
    readonly name: string;
    readonly path: LinkPurpose;
    readonly decide: (deps: D, request: WebRequest) => Promise<V>;
    readonly render: (view: V | BadRequestView, formAction: string) => RenderedPage;
  },
) {
  const formAction = actionUrl(deps.publicBaseUrl, page.path);
  return createPageHandler(deps, { name: page.name, decide: (request) => page.decide(deps, request), render: (view) => page.render(view, formAction) });
}
