/** A refused control or model operation; `status` is the HTTP status the control API answers with. */
export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';

  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
