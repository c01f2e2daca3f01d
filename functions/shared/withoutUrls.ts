const REQUEST_URL = /\b(?:(?:GET|POST|PUT|PATCH|DELETE|HEAD) )?[a-z][a-z0-9+.-]*:\/\/[^\s'"<>)]*/gi;

/**
 * `text` with every URL (and the HTTP method before it) replaced by "a request": for text shown
 * to anyone that may quote a request, such as an account's status reason stored before reasons
 * were kept public (host, port, path and query never reach an email).
 */
export function withoutUrls(text: string): string {
  return text.replace(REQUEST_URL, 'a request');
}
