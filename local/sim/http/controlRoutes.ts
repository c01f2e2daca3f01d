import * as z from 'zod';
import {
  addDelegateRequest,
  advanceClockRequest,
  createAccountRequest,
  drawdownRequest,
  printRequest,
  faultProfileSchema,
  flowRequest,
  setClockRequest,
  setNonceRequest,
  settingsRequest,
} from '../controlSchemas';
import type { Simulator } from '../simulator';
import { SimulatorError } from '../simulatorError';
import { json, type HttpResponse } from './httpResponse';

type Handler = (sim: Simulator, params: readonly string[], body: unknown) => unknown;

interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  pattern: RegExp;
  handle: Handler;
}

const ACCOUNT = '/accounts/([^/]+)';

/** The control API, relative to its prefix. Every body in and out is JSON. */
const ROUTES: readonly ControlRoute[] = [
  { method: 'GET', pattern: /^\/state$/, handle: (sim) => sim.state() },
  { method: 'POST', pattern: /^\/accounts$/, handle: (sim, _p, body) => sim.createAccount(createAccountRequest.parse(body ?? {})) },
  { method: 'GET', pattern: route(`${ACCOUNT}`), handle: (sim, [a]) => sim.accountView(a ?? '') },
  {
    method: 'POST',
    pattern: route(`${ACCOUNT}/delegates`),
    handle: (sim, [a], body) => sim.addDelegate(a ?? '', addDelegateRequest.parse(body ?? {})),
  },
  {
    method: 'DELETE',
    pattern: route(`${ACCOUNT}/delegates/([^/]+)`),
    handle: (sim, [a, d]) => {
      sim.removeDelegate(a ?? '', d ?? '');
      return { removed: true };
    },
  },
  {
    method: 'POST',
    pattern: route(`${ACCOUNT}/deposit`),
    handle: (sim, [a], body) => {
      const request = flowRequest.parse(body);
      return sim.flow(a ?? '', request.amount, request.atMs);
    },
  },
  {
    method: 'POST',
    pattern: route(`${ACCOUNT}/withdraw`),
    handle: (sim, [a], body) => {
      const request = flowRequest.parse(body);
      return sim.flow(a ?? '', -request.amount, request.atMs);
    },
  },
  {
    method: 'POST',
    pattern: route(`${ACCOUNT}/drawdown`),
    handle: (sim, [a], body) => {
      const request = drawdownRequest.parse(body);
      return sim.drawdown(a ?? '', request.pct, request.overMs, request.atMs);
    },
  },
  {
    method: 'POST',
    pattern: route(`${ACCOUNT}/print`),
    handle: (sim, [a], body) => {
      const request = printRequest.parse(body);
      return sim.print(a ?? '', request.pct, request.atMs);
    },
  },
  {
    method: 'PUT',
    pattern: route(`${ACCOUNT}/nonce`),
    handle: (sim, [a], body) => {
      const request = setNonceRequest.parse(body);
      return sim.setNonce(a ?? '', request.nonce, request.deferredNonce);
    },
  },
  { method: 'GET', pattern: /^\/clock$/, handle: (sim) => clock(sim) },
  {
    method: 'POST',
    pattern: /^\/clock\/advance$/,
    handle: (sim, _p, body) => {
      sim.clock.advance(advanceClockRequest.parse(body).ms);
      return clock(sim);
    },
  },
  {
    method: 'PUT',
    pattern: /^\/clock$/,
    handle: (sim, _p, body) => {
      const request = setClockRequest.parse(body);
      if (request.nowMs !== undefined) sim.clock.set(request.nowMs);
      if (request.speed !== undefined) sim.clock.setSpeed(request.speed);
      return clock(sim);
    },
  },
  { method: 'GET', pattern: /^\/faults$/, handle: (sim) => ({ faults: sim.faults.profile }) },
  {
    method: 'PUT',
    pattern: /^\/faults$/,
    handle: (sim, _p, body) => {
      sim.faults.set(faultProfileSchema.parse(body));
      return { faults: sim.faults.profile };
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/faults$/,
    handle: (sim) => {
      sim.faults.reset();
      return { faults: sim.faults.profile };
    },
  },
  {
    method: 'PUT',
    pattern: /^\/settings$/,
    handle: (sim, _p, body) => {
      const request = settingsRequest.parse(body);
      if (request.rejectionStatus !== undefined) sim.rejectionStatus = request.rejectionStatus;
      if (request.winRateFormat !== undefined) sim.winRateFormat = request.winRateFormat;
      return { rejectionStatus: sim.rejectionStatus, winRateFormat: sim.winRateFormat };
    },
  },
];

/** Answers one control request; `path` is relative to the control prefix. */
export function handleControl(sim: Simulator, method: string, path: string, body: unknown): HttpResponse {
  let pathMatched = false;
  for (const candidate of ROUTES) {
    const match = candidate.pattern.exec(path);
    if (match === null) continue;
    pathMatched = true;
    if (candidate.method !== method) continue;
    try {
      return json(200, candidate.handle(sim, match.slice(1).map(decodeURIComponent), body));
    } catch (err) {
      return failure(err);
    }
  }
  return pathMatched ? json(405, { error: `method ${method} not allowed on ${path}` }) : json(404, { error: `no control route ${path}` });
}

function failure(err: unknown): HttpResponse {
  if (err instanceof SimulatorError) return json(err.status, { error: err.message });
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    const where = issue !== undefined && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return json(400, { error: `invalid request: ${where}${issue?.message ?? 'invalid'}` });
  }
  if (err instanceof RangeError) return json(400, { error: err.message });
  throw err;
}

function route(source: string): RegExp {
  return new RegExp(`^${source}$`);
}

function clock(sim: Simulator): { nowMs: number; speed: number } {
  return { nowMs: sim.clock.now(), speed: sim.clock.speed };
}
