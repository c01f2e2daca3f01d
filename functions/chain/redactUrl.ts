const SECRET_PARAM = /key|token|secret|pass|auth|sig|credential|session/i;

/**
 * Whether a path segment may be a credential (node providers put API keys in the path:
 * `/v3/<key>`): 20 characters or more, 8 or more mixing letters and digits, or the segment right
 * after one named like a secret (`/apikey/<key>`). Route names (`transaction`, `account-nonce`,
 * `delegate-traders`, `portfolio`, `v1`) are none of these.
 */
function isSecretSegment(segment: string, previous: string | undefined): boolean {
  if (segment === '') return false;
  if (previous !== undefined && SECRET_PARAM.test(previous)) return true;
  if (segment.length >= 20) return true;
  return segment.length >= 8 && /\d/.test(segment) && /[A-Za-z]/.test(segment);
}

/**
 * A URL safe to put in a log line, an error message or the audit trail: user info removed,
 * secret-looking path segments replaced by `redacted`, and the value of any query parameter whose
 * name looks secret (`apiKey`, `token`, `signature`, ...) replaced by `redacted`.
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
  const segments = parsed.pathname.split('/');
  parsed.pathname = segments.map((segment, i) => (isSecretSegment(segment, segments[i - 1]) ? 'redacted' : segment)).join('/');
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, 'redacted');
  }
  parsed.hash = '';
  return parsed.toString();
}

/**
 * `text` (e.g. an error body that echoes the request path) with every secret part of `url`
 * (user info, secret-looking path segments, secret query values) replaced by `redacted`.
 */
export function redactEchoes(text: string, url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url.toString());
  } catch {
    return text;
  }
  const segments = parsed.pathname.split('/');
  const secrets = [
    parsed.username,
    parsed.password,
    ...segments.filter((segment, i) => isSecretSegment(segment, segments[i - 1])),
    ...[...parsed.searchParams].filter(([name]) => SECRET_PARAM.test(name)).map(([, value]) => value),
  ].flatMap((secret) => {
    if (secret.length < 4) return [];
    let decoded = secret;
    try {
      decoded = decodeURIComponent(secret);
    } catch {
      // keep the raw form only
    }
    return decoded === secret ? [secret] : [secret, decoded];
  });
  return secrets.sort((a, b) => b.length - a.length).reduce((out, secret) => out.split(secret).join('redacted'), text);
}
