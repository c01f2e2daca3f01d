import type { ChainRoute } from '../faults/faultProfile';
import { parseAddress, parsePortfolioQuery } from '../portfolio/query';
import type { Simulator } from '../simulator';
import type { TransactionOutcome } from '../node/executeTransaction';
import { json, text, type HttpResponse } from './httpResponse';
import { parseJson } from './readBody';

/** A chain route matched by method and path. */
export interface ChainEndpoint {
  route: ChainRoute;
  method: 'GET' | 'POST';
  handle(sim: Simulator, query: URLSearchParams, body: string): HttpResponse;
}

const ENDPOINTS: Record<ChainRoute, ChainEndpoint> = {
  portfolio: {
    route: 'portfolio',
    method: 'GET',
    handle(sim, query) {
      const parsed = parsePortfolioQuery(query);
      return parsed.ok ? json(200, sim.portfolio(parsed.query)) : text(400, parsed.message);
    },
  },
  'account-nonce': {
    route: 'account-nonce',
    method: 'GET',
    handle(sim, query) {
      const account = accountParameter(query);
      return typeof account === 'string' ? json(200, sim.ledger.nonces(account)) : account;
    },
  },
  'delegate-traders': {
    route: 'delegate-traders',
    method: 'GET',
    handle(sim, query) {
      const account = accountParameter(query);
      return typeof account === 'string' ? json(200, { delegates: sim.ledger.delegates(account) }) : account;
    },
  },
  transaction: {
    route: 'transaction',
    method: 'POST',
    handle(sim, _query, body) {
      const parsed = jsonBody(body);
      return parsed.ok ? outcome(sim, sim.submitTransaction(parsed.value)) : parsed.response;
    },
  },
  batch_transactions: {
    route: 'batch_transactions',
    method: 'POST',
    handle(sim, _query, body) {
      const parsed = jsonBody(body);
      return parsed.ok ? outcome(sim, sim.submitBatch(parsed.value)) : parsed.response;
    },
  },
};

/**
 * Finds the chain endpoint for a path: node routes right below the root, `portfolio` below the
 * indexer prefix. `undefined` when no route has that path.
 */
export function matchChainRoute(pathname: string, indexerPrefix: string): ChainEndpoint | undefined {
  if (pathname === `${indexerPrefix}/portfolio`) return ENDPOINTS.portfolio;
  const name = pathname.slice(1);
  if (name === 'portfolio') return undefined;
  return Object.hasOwn(ENDPOINTS, name) ? ENDPOINTS[name as ChainRoute] : undefined;
}

function accountParameter(query: URLSearchParams): string | HttpResponse {
  const values = query.getAll('account');
  if (values.length !== 1) return text(400, 'exactly one query parameter "account" (a 0x-prefixed address) is required');
  const account = parseAddress(values[0] ?? '');
  return account ?? text(400, `account must be a 0x-prefixed 20-byte hex address, got "${(values[0] ?? '').slice(0, 64)}"`);
}

/** A body that is not JSON is refused before the node looks at it, with a plain-text 400. */
function jsonBody(body: string): { ok: true; value: unknown } | { ok: false; response: HttpResponse } {
  try {
    return { ok: true, value: parseJson(body) };
  } catch {
    return { ok: false, response: text(400, 'request body is not valid JSON') };
  }
}

function outcome(sim: Simulator, result: TransactionOutcome): HttpResponse {
  return result.ok ? json(200, result.result) : json(sim.rejectionStatus, { Err: result.error });
}
