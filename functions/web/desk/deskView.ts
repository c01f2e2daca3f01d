import type { RenderedPage } from '../renderedPage';
import type { BadRequestView } from '../pageHandler';
import { html } from '../html';
import { renderDeskDocument, type DeskChrome } from './deskLayout';
import { deskSecurityHeaders } from './deskHeaders';
import { IMMUTABLE_CACHE, type DeskAsset } from './deskAssets';
import { renderSignInView, SIGN_IN_STATUS, type SignInView } from './signInViews';
import { renderSignedInView, type SignedInView } from './signedInViews';

/** Everything the desk endpoint answers. */
export type DeskView =
  | SignInView
  | SignedInView
  | { kind: 'redirect'; location: string; setCookie?: string }
  | { kind: 'json'; status: number; body: unknown; setCookie?: string }
  | { kind: 'asset'; asset: DeskAsset }
  | { kind: 'not-found'; chrome: DeskChrome | null }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'rate-limited'; chrome: DeskChrome; reason: string }
  | { kind: 'method-not-allowed' };

/** What rendering needs besides the view: the base URL, and the script of the sign-in page's passkey button. */
export interface DeskRenderContext {
  readonly baseUrl: string;
  readonly signInScripts: readonly string[];
}

const SIGN_IN_KINDS: ReadonlySet<string> = new Set(Object.keys(SIGN_IN_STATUS));

function isSignIn(view: DeskView | BadRequestView): view is SignInView {
  return SIGN_IN_KINDS.has(view.kind);
}

function problem(title: string, text: string, chrome: DeskChrome | null): string {
  return renderDeskDocument({ title, body: html`<h1>${title}</h1><p>${text}</p>`, ...(chrome ? { chrome } : {}) });
}

/** Renders a desk view with the desk's headers (its CSP; never cached, except hashed assets). */
export function renderDeskView(view: DeskView | BadRequestView, ctx: DeskRenderContext): RenderedPage {
  const headers = deskSecurityHeaders();
  if (isSignIn(view)) return { status: SIGN_IN_STATUS[view.kind], headers, html: renderSignInView(view, ctx.baseUrl, ctx.signInScripts) };
  switch (view.kind) {
    case 'redirect':
      return { status: 303, headers: { ...headers, location: view.location, ...(view.setCookie ? { 'set-cookie': view.setCookie } : {}) }, html: '' };
    case 'json':
      return {
        status: view.status,
        headers: { ...headers, 'content-type': 'application/json; charset=utf-8', ...(view.setCookie ? { 'set-cookie': view.setCookie } : {}) },
        html: JSON.stringify(view.body),
      };
    case 'asset':
      return {
        status: 200,
        headers: { ...headers, 'content-type': view.asset.contentType, 'cache-control': IMMUTABLE_CACHE },
        html: view.asset.body,
      };
    case 'not-found':
      return {
        status: 404,
        headers,
        html: problem('Not found', 'There is nothing here for you: no such page, or an account you do not receive.', view.chrome),
      };
    case 'forbidden':
      return { status: 403, headers, html: problem('Request refused', `${view.reason}. Open the page again and use its button. Nothing was changed.`, null) };
    case 'bad-request':
      return { status: 400, headers, html: problem('Request not understood', `The request could not be read (${view.reason}). Nothing was changed.`, null) };
    case 'rate-limited':
      return { status: 429, headers, html: problem('Too many requests', `${view.reason}. Nothing was sent.`, view.chrome) };
    case 'method-not-allowed':
      return {
        status: 405,
        headers: { ...headers, allow: 'GET, HEAD, POST' },
        html: problem('Method not allowed', 'This page accepts only GET and POST.', null),
      };
    default:
      return renderSignedInView(view, ctx.baseUrl, headers);
  }
}
