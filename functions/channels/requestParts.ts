import type { ChannelRequest } from './channelDefinition';

/** The file name of a chart attachment (Discord's embed refers to it as `attachment://chart.png`). */
export const CHART_FILE = 'chart.png';

/** A chart's PNG bytes as a multipart file part. */
export const pngBlob = (bytes: Uint8Array): Blob => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

/** A JSON POST of `payload` to `url`, with `headers` besides the content type. */
export function jsonRequest(url: string, payload: unknown, headers: Record<string, string> = {}): ChannelRequest {
  return { url, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) };
}
