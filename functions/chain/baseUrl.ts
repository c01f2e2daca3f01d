import { ChainRequestError } from './errors';

/** A configured base URL (node or indexer), split from any credentials it carried. */
export interface BaseUrl {
  /** The base with user info removed and its path ending in `/`, so routes resolve below any prefix. */
  readonly url: URL;
  /** `Basic ...` when the configured URL carried `user:password@`; sent as a header, never in the URL. */
  readonly authorization: string | undefined;
}

/**
 * Parses a base URL such as `https://host/indexer/v1` (a path prefix is kept). `fetch` refuses URLs with
 * credentials, so user info becomes an `Authorization` header. Throws `ChainRequestError` naming `name`.
 */
export function parseBaseUrl(name: string, raw: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ChainRequestError(name, 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ChainRequestError(name, `must be http or https, got ${url.protocol}`);
  }
  let authorization: string | undefined;
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return { url, authorization };
}

/**
 * `route` (no leading slash, e.g. `portfolio`) below `base`, with `query` appended after any query the
 * base URL itself carries.
 */
export function routeUrl(base: BaseUrl, route: string, query: Readonly<Record<string, string>> = {}): URL {
  const url = new URL(route.replace(/^\/+/, ''), base.url);
  url.search = base.url.search;
  for (const [key, value] of Object.entries(query)) url.searchParams.append(key, value);
  return url;
}
