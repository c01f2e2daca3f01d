import * as z from 'zod';
import type { WinRateFormat } from './portfolio/winRateFormat';
import {
  accountViewResponse,
  addedDelegateResponse,
  clockResponse,
  createdAccountResponse,
  eventResponse,
  faultsResponse,
  settingsResponse,
  stateResponse,
  type AccountView,
  type AddDelegateRequest,
  type AddedDelegate,
  type ClockView,
  type CreateAccountRequest,
  type CreatedAccount,
  type DrawdownRequest,
  type PrintRequest,
  type EventApplied,
  type FlowRequest,
  type SetClockRequest,
  type SimState,
} from './controlSchemas';
import type { FaultProfileInput } from './faults/faultProfile';

/** A control request the simulator refused (status and its `error` message) or answered oddly. */
export class SimControlError extends Error {
  override readonly name = 'SimControlError';

  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Typed client of the simulator's control API, over HTTP. */
export class SimControlClient {
  private readonly base: string;

  /** `controlUrl` as printed by `sentinel sim` or returned by `startSimulator`. */
  constructor(controlUrl: string) {
    this.base = controlUrl.replace(/\/+$/, '');
  }

  state(): Promise<SimState> {
    return this.call('GET', '/state', undefined, stateResponse);
  }

  createAccount(request: CreateAccountRequest = {}): Promise<CreatedAccount> {
    return this.call('POST', '/accounts', request, createdAccountResponse);
  }

  account(address: string): Promise<AccountView> {
    return this.call('GET', `/accounts/${segment(address)}`, undefined, accountViewResponse);
  }

  addDelegate(owner: string, request: AddDelegateRequest = {}): Promise<AddedDelegate> {
    return this.call('POST', `/accounts/${segment(owner)}/delegates`, request, addedDelegateResponse);
  }

  async removeDelegate(owner: string, delegate: string): Promise<void> {
    await this.call('DELETE', `/accounts/${segment(owner)}/delegates/${segment(delegate)}`, undefined, z.object({ removed: z.literal(true) }));
  }

  deposit(address: string, request: FlowRequest): Promise<EventApplied> {
    return this.call('POST', `/accounts/${segment(address)}/deposit`, request, eventResponse);
  }

  withdraw(address: string, request: FlowRequest): Promise<EventApplied> {
    return this.call('POST', `/accounts/${segment(address)}/withdraw`, request, eventResponse);
  }

  /** A trading loss of `pct` % of equity, at once or spread over `overMs`. */
  drawdown(address: string, request: DrawdownRequest): Promise<EventApplied> {
    return this.call('POST', `/accounts/${segment(address)}/drawdown`, request, eventResponse);
  }

  /** A bad print: one minute's curve point off by `pct` % of equity, the next minute as before. */
  print(address: string, request: PrintRequest): Promise<EventApplied> {
    return this.call('POST', `/accounts/${segment(address)}/print`, request, eventResponse);
  }

  setNonce(address: string, nonce: number, deferredNonce?: number): Promise<{ nonce: number; deferredNonce: number }> {
    const body = deferredNonce === undefined ? { nonce } : { nonce, deferredNonce };
    return this.call('PUT', `/accounts/${segment(address)}/nonce`, body, z.object({ nonce: z.number(), deferredNonce: z.number() }));
  }

  clock(): Promise<ClockView> {
    return this.call('GET', '/clock', undefined, clockResponse);
  }

  advanceClock(ms: number): Promise<ClockView> {
    return this.call('POST', '/clock/advance', { ms }, clockResponse);
  }

  setClock(request: SetClockRequest): Promise<ClockView> {
    return this.call('PUT', '/clock', request, clockResponse);
  }

  async setFaults(profile: FaultProfileInput): Promise<void> {
    await this.call('PUT', '/faults', profile, faultsResponse);
  }

  async resetFaults(): Promise<void> {
    await this.call('DELETE', '/faults', undefined, faultsResponse);
  }

  /** HTTP status of rejected transactions (their body is always `{"Err": ...}`). */
  async setRejectionStatus(status: number): Promise<void> {
    await this.call('PUT', '/settings', { rejectionStatus: status }, settingsResponse);
  }

  /** How `GET /portfolio` writes `winRate`: `fraction` (default, `"0.4954"`), `percent` (`"49.54"`) or `percent-sign` (`"49.54%"`). */
  async setWinRateFormat(format: WinRateFormat): Promise<void> {
    await this.call('PUT', '/settings', { winRateFormat: format }, settingsResponse);
  }

  private async call<T extends z.ZodType>(method: string, path: string, body: unknown, schema: T): Promise<z.output<T>> {
    const init: RequestInit = { method, headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    }
    const response = await fetch(`${this.base}${path}`, init);
    const text = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new SimControlError(response.status, `${method} ${path}: response is not JSON`, { cause: err });
    }
    if (!response.ok) {
      const message = z.object({ error: z.string() }).safeParse(value);
      throw new SimControlError(response.status, `${method} ${path}: ${message.success ? message.data.error : `status ${response.status}`}`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new SimControlError(response.status, `${method} ${path}: unexpected response`, { cause: parsed.error });
    return parsed.data;
  }
}

function segment(value: string): string {
  return encodeURIComponent(value);
}
