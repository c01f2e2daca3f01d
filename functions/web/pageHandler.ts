import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Log } from '../shared/observability';
import { htmlResponse } from './htmlResponse';
import { pageFailureResponse } from './pageFailure';
import type { RenderedPage } from './revocationViews';
import { toWebRequest, type WebRequest } from './webRequest';
import { describeError } from '../shared/describeError';

/**
 * The shape every public page handler shares (API Gateway payload 2.0 or REST API payload 1.0 events): parse the request,
 * let the page service decide what to show (`bad-request` for a request that could not be read),
 * render it with the security headers, drop the body for HEAD. An unexpected failure is logged
 * (message only: never the token or the URL) and answered with a plain 500 page. `deps` are the
 * handler's own: its log, and the Lambda context and metrics flush when it has them.
 */
export function createPageHandler<V>(
  deps: {
    readonly log: Log;
    /** Adds the invocation's Lambda context to the log lines (Powertools). */
    readonly addContext?: (context: Context) => void;
    /** Flushes the invocation's metrics once the page is decided. */
    readonly flushMetrics?: () => void;
  },
  options: {
    readonly name: string;
    readonly decide: (request: WebRequest) => Promise<V>;
    readonly badRequest: (reason: string) => V;
    readonly render: (view: V) => RenderedPage;
  },
) {
  return async (event: APIGatewayProxyEventV2 | APIGatewayProxyEvent, context?: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    if (context) deps.addContext?.(context);
    const parsed = toWebRequest(event);
    try {
      const view = parsed.kind === 'request' ? await options.decide(parsed.request) : options.badRequest(parsed.reason);
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
