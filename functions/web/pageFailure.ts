import { html } from './html';
import { htmlResponse } from './htmlResponse';
import { renderPage } from './pageLayout';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** The page shown when a page handler fails unexpectedly (a store outage): 500, nothing about the cause. */
export function pageFailureResponse(): APIGatewayProxyStructuredResultV2 {
  const page = renderPage({
    title: 'Something went wrong',
    badge: 'Error',
    tone: 'danger',
    body: html`<p>The request could not be completed. Please try again in a few minutes.</p>`,
  });
  return htmlResponse(500, page);
}
