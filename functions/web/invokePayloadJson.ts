/** What a synchronous Lambda invoke answered (its `Payload`), parsed as JSON; `undefined` when empty or not JSON. */
export function invokePayloadJson(payload: Uint8Array | undefined): unknown {
  if (!payload) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(payload)) as unknown;
  } catch {
    return undefined;
  }
}
