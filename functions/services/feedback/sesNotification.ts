import * as z from 'zod';

/** A field only shown to the operator: one that is not a string reads as absent, never as a malformed event. */
const shownText = z.string().max(4_000).optional().catch(undefined);

const recipient = z.looseObject({ emailAddress: z.string().min(3).max(512) });
const bouncedRecipient = recipient.extend({ diagnosticCode: shownText, status: shownText });

/**
 * An SES event as published to SNS: by a configuration set (`eventType`) or by an identity's
 * feedback notifications (`notificationType`). Only what suppression needs is checked; the
 * bounce's details the operator notice shows are read when they are strings; other fields (and
 * other event types such as `Delivery` or `Send`) pass through untouched.
 */
export const sesNotificationSchema = z
  .looseObject({
    eventType: z.string().min(1).optional(),
    notificationType: z.string().min(1).optional(),
    bounce: z
      .looseObject({
        bounceType: z.string().min(1),
        bounceSubType: z.string().optional(),
        bouncedRecipients: z.array(bouncedRecipient),
        feedbackId: shownText,
        timestamp: shownText,
      })
      .optional(),
    complaint: z.looseObject({ complainedRecipients: z.array(recipient) }).optional(),
    mail: z.looseObject({ messageId: z.string().optional() }).optional(),
  })
  .refine((e) => e.eventType !== undefined || e.notificationType !== undefined, 'neither eventType nor notificationType is set')
  .refine((e) => (e.eventType ?? e.notificationType) !== 'Bounce' || e.bounce !== undefined, {
    message: 'a Bounce without its bounce object',
    path: ['bounce'],
  })
  .refine((e) => (e.eventType ?? e.notificationType) !== 'Complaint' || e.complaint !== undefined, {
    message: 'a Complaint without its complaint object',
    path: ['complaint'],
  });
export type SesNotification = z.infer<typeof sesNotificationSchema>;
