/** The path of PagerDuty's Events API v2 endpoint. */
const ENQUEUE_PATH = '/v2/enqueue';

/**
 * The Events API v2 endpoint from `PAGERDUTY_EVENTS_URL`, which may be given either as the full
 * endpoint (`https://events.eu.pagerduty.com/v2/enqueue`, as PagerDuty documents it) or as the API
 * base (`https://events.pagerduty.com`): the path is added only when it is not there yet. A
 * trailing slash is dropped either way.
 */
export function pagerdutyEndpoint(setting: string): string {
  const trimmed = setting.replace(/\/+$/, '');
  return trimmed.endsWith(ENQUEUE_PATH) ? trimmed : `${trimmed}${ENQUEUE_PATH}`;
}
