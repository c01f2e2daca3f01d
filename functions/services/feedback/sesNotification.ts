import * as z from 'zod';

const recipient = z.looseObject({ emailAddress: z.string().min(3).max(512) });

/**
 * An SES event as published to SNS: by a configuration set (`eventType`) or by an identity's
 * feedback notifications (`notificationType`). Only what suppression needs is checked; other
 * fields (and other event types such as `Delivery` or `Send`) pass through untouched.
 */
export const sesNotificationSchema = z
  .looseObject({
    eventType: z.string().min(1).optional(),
    notificationType: z.string().min(1).optional(),
    bounce: z
      .looseObject({
        bounceType: z.string().min(1),
        bounceSubType: z.string().optional(),
        bouncedRecipients: z.array(recipient),
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
