import { SendRawEmailCommand, type SESClient } from '@aws-sdk/client-ses';
import { EmailSendError } from '../errors';

/** A finished MIME message and who receives it. */
export interface RawEmail {
  raw: Uint8Array;
  /** Envelope recipients; the `To` header inside `raw` is what they see. */
  destinations: readonly string[];
  /** Envelope sender; SES takes it from the `From` header when omitted. */
  source?: string;
}

/** Sends raw MIME messages; returns the provider's message id. Failures throw `EmailSendError`. */
export interface MailSender {
  send(email: RawEmail): Promise<{ messageId: string }>;
}

/** Error names SES (or the SDK) uses for conditions that pass if tried again later. */
const RETRYABLE_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'MaxSendingRateExceeded',
  'TooManyRequestsException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalFailure',
  'InternalServiceError',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
]);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

function redact(message: string): string {
  return message
    .replace(/[^\s<>"',;:()]+@[^\s<>"',;:()]+/g, '<address>')
    .replace(/https?:\/\/\S+/g, '<link>')
    .slice(0, 500);
}

/**
 * Sorts a failure into retryable (throttling, 429, 5xx, timeouts, network errors) or permanent
 * (e.g. `MessageRejected`, an unverified sender, a paused account, a bad request, or anything
 * thrown before a request was made).
 */
export function classifySendError(err: unknown): EmailSendError {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SdkErrorShape;
  const name = typeof e.name === 'string' && e.name !== 'Error' ? e.name : typeof e.code === 'string' ? e.code : 'UnknownError';
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : undefined;
  const networkCode = typeof e.code === 'string' && NETWORK_CODES.has(e.code);
  const retryable = RETRYABLE_CODES.has(name) || Boolean(e.$retryable) || (status !== undefined ? status === 429 || status >= 500 : networkCode);
  const detail = typeof e.message === 'string' && e.message ? redact(e.message) : null;
  return new EmailSendError(name, retryable, detail, { cause: err });
}

/** Sends through SES `SendRawEmail`, with the client injected (endpoint, region and credentials are the caller's). */
export class SesSender implements MailSender {
  constructor(
    private readonly client: SESClient,
    private readonly options: { configurationSetName?: string } = {},
  ) {}

  async send(email: RawEmail): Promise<{ messageId: string }> {
    if (email.destinations.length === 0) throw new EmailSendError('NoRecipients', false, null);
    const command = new SendRawEmailCommand({
      Destinations: [...email.destinations],
      RawMessage: { Data: email.raw },
      ...(email.source ? { Source: email.source } : {}),
      ...(this.options.configurationSetName ? { ConfigurationSetName: this.options.configurationSetName } : {}),
    });
    let messageId: string | undefined;
    try {
      ({ MessageId: messageId } = await this.client.send(command));
    } catch (err) {
      throw classifySendError(err);
    }
    if (!messageId) throw new EmailSendError('NoMessageId', true, 'SES accepted the request but returned no MessageId');
    return { messageId };
  }
}
