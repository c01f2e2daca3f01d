import { SimControlClient } from '../../../local/sim/controlClient';
import { startSimulator, type RunningSimulator, type StartOptions } from '../../../local/sim/http/server';
import { simPerFile, type TestSimulator } from './simPerFile';

/** A fixed simulated start time: 2025-03-14 12:00:00 UTC (a whole hour). */
export const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);

/** A simulator on a free port whose clock only moves when advanced, and a control client for it. */
export async function startTestSim(options: StartOptions = {}): Promise<RunningSimulator & { control: SimControlClient }> {
  const sim = await startSimulator({ seed: 42, clock: { startMs: T0, speed: 0 }, ...options });
  return Object.assign(sim, { control: new SimControlClient(sim.controlUrl) });
}

/** `startTestSim`'s simulator (seed 42, its clock stopped at `T0`) for one test file: `simPerFile` with those defaults under `options`. */
export function testSimPerFile(options: StartOptions = {}): TestSimulator {
  return simPerFile({ seed: 42, clock: { startMs: T0, speed: 0 }, ...options });
}

/** What a test needs from an HTTP response. */
export interface Reply {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  /** The parsed body (undefined if it is not JSON). */
  json: unknown;
}

export async function request(url: string, init?: RequestInit): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', headers: response.headers, text, json };
}

export function postJson(url: string, body: unknown): Promise<Reply> {
  return request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
