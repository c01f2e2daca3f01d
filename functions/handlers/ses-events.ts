import type { Context, SNSEvent } from 'aws-lambda';
import { AccountHistoryRepository } from '../store/accountHistoryRepository';
import * as z from 'zod';
import { settingsFor } from '../config/settings';
import { parseRecord } from '../runtime/consumer/sqsConsumer';
import { sesSenderFrom, someRepositoriesFrom } from '../runtime/factories';
import type { MailSender } from '../mail/send/sesSender';
import { AccountsRepository } from '../store/accountsRepository';
import { DeliveryRepository } from '../store/deliveryRepository';
import { DeskOperatorsRepository } from '../store/deskOperatorsRepository';
import { PreferencesRepository } from '../store/preferencesRepository';
import { SuppressionRepository } from '../store/suppressionRepository';
import { lazyHandler } from '../runtime/lazyHandler';
import { SentinelError } from '../shared/sentinelError';
import { describeError } from '../shared/describeError';
import { recordSesFeedback, type SesFeedbackDeps } from '../services/feedback/recordSesFeedback';
import { sesNotificationSchema } from '../services/feedback/sesNotification';
import { createObservability, type Counters } from '../shared/observability';

/** What the SES events handler needs. */
export interface SesEventsDeps extends SesFeedbackDeps {
  readonly counters: Counters;
  readonly flush?: () => void;
  readonly addContext?: (context: Context) => void;
}

const snsEventSchema = z.object({
  Records: z.array(z.looseObject({ Sns: z.looseObject({ MessageId: z.string().optional(), Message: z.string() }) })),
});

/** Raised after the other records were handled when suppressing some address failed; SNS retries the event (suppressing is idempotent). */
export class SesEventsError extends SentinelError {
  override readonly name = 'SesEventsError';
  constructor(message: string) {
    super(message, { retryable: true });
  }
}

const readNotification = parseRecord(sesNotificationSchema);

/**
 * Consumes SES configuration-set events delivered through SNS: permanent bounces and complaints
 * suppress the addresses involved, and the operator is told once of a bounced address that still
 * got security notices (`recordSesFeedback`); everything else is ignored. A malformed
 * message is logged (reason only, never its content: it holds addresses) and skipped.
 */
export function createSesEventsHandler(deps: SesEventsDeps) {
  return async (event: SNSEvent, context?: Context): Promise<void> => {
    if (context) deps.addContext?.(context);
    try {
      const envelope = snsEventSchema.safeParse(event);
      if (!envelope.success) {
        deps.counters.count('MalformedSesEvents');
        deps.log.error('not an SNS event', { reason: envelope.error.issues[0]?.message ?? 'invalid' });
        return;
      }
      let failures = 0;
      for (const { Sns } of envelope.data.Records) {
        const parsed = readNotification(Sns.Message);
        if (parsed.kind === 'malformed') {
          deps.counters.count('MalformedSesEvents');
          deps.log.warn('malformed SES event skipped', { messageId: Sns.MessageId, reason: parsed.reason });
          continue;
        }
        try {
          const outcome = await recordSesFeedback(deps, parsed.value);
          if (outcome.kind === 'suppressed') deps.counters.count(outcome.reason === 'bounce' ? 'SuppressedBounces' : 'SuppressedComplaints', outcome.addresses);
          deps.log.info('SES event handled', { messageId: Sns.MessageId, outcome });
        } catch (error) {
          failures++;
          deps.log.error('could not record SES feedback', { messageId: Sns.MessageId, error: describeError(error, { audience: 'log' }) });
        }
      }
      if (failures > 0) throw new SesEventsError(`${failures} SES event(s) could not be recorded`);
    } finally {
      deps.flush?.();
    }
  };
}

/**
 * Builds the handler's dependencies from the environment (once per cold start). The SES client is
 * made on the first operator notice only: most events send nothing.
 */
export async function sesEventsDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<SesEventsDeps> {
  const settings = settingsFor('ses-events', env);
  const { log, counters, flush, addContext } = createObservability('ses-events');
  let ses: MailSender | undefined;
  return {
    repos: someRepositoriesFrom(settings, {
      suppressions: SuppressionRepository,
      accounts: AccountsRepository,
      preferences: PreferencesRepository,
      deliveries: DeliveryRepository,
      deskOperators: DeskOperatorsRepository,
      history: AccountHistoryRepository,
    }),
    sender: { send: (email) => (ses ??= sesSenderFrom(settings)).send(email) },
    mailFrom: settings.MAIL_FROM,
    operatorEmail: settings.OPERATOR_EMAIL ?? null,
    now: Date.now,
    log,
    counters,
    flush,
    addContext,
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createSesEventsHandler(await sesEventsDepsFromEnv()));
