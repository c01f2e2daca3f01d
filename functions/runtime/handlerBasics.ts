import { settingsFor, type HandlerSettings } from '../config/settings';
import { HANDLER_CATALOG, type HandlerName } from '../config/handlerCatalog';
import { createObservability, type Counters, type Log, type Observability } from '../shared/observability';
import { pageSecurityFrom } from './pageSecurityFrom';

/** What every handler's dependencies start from, built once per cold start (see `handlerBasics`). */
export interface HandlerBasics {
  readonly log: Log;
  readonly counters: Counters;
  /** Flushes the invocation's metrics. */
  readonly flush: Observability['flush'];
  readonly addContext: Observability['addContext'];
  /** Time kept free before the Lambda's timeout (`DEADLINE_MARGIN_MS`). */
  readonly deadlineMarginMs: number;
  readonly now: () => number;
}

/**
 * One handler's settings (`settingsFor`: a missing variable fails the cold start, naming it) and
 * what its dependencies start from: its own logger and metrics (`createObservability`), the
 * deadline margin and the clock.
 */
export function handlerBasics<H extends HandlerName>(
  handler: H,
  env: Readonly<Record<string, string | undefined>>,
): HandlerBasics & { readonly settings: HandlerSettings<H> } {
  const settings = settingsFor(handler, env);
  const { log, counters, flush, addContext } = createObservability(handler);
  return { settings, log, counters, flush, addContext, deadlineMarginMs: settings.DEADLINE_MARGIN_MS, now: Date.now };
}

/**
 * A page handler's basics: its settings, and the part of its dependencies every page shares (the
 * page security from `pageSecurityFrom`: the public keys of the links it reads, the anti-CSRF secret and the public base URL; its logger;
 * the clock), with its metrics apart for the pages that count.
 */
export async function pageBasics<H extends HandlerName>(handler: H, env: Readonly<Record<string, string | undefined>>) {
  const { settings, log, counters, flush, addContext, now } = handlerBasics(handler, env);
  return { settings, counters, flush, page: { ...(await pageSecurityFrom(settings, HANDLER_CATALOG[handler].requires.links.verifies)), log, addContext, now } };
}
