const SECRET_PARAM = /key|token|secret|pass|auth|sig|credential|session/i;

/**
 * A URL safe to put in a log line or an error message: user info removed, and the value of any
 * query parameter whose name looks secret (`apiKey`, `token`, `signature`, ...) replaced by `redacted`.
 * Unparseable input yields `(invalid url)`, never the input itself.
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url.toString());
  } catch {
    return '(invalid url)';
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, 'redacted');
  }
  return parsed.toString();
}
