/** Leading part of the operator notices' delivery records (the `ses-events` grant on `deliveries` is scoped to it). */
export const SECURITY_BOUNCE_DELIVERY_PREFIX = 'security-bounce:';

/**
 * The event id of the operator notice about one bounced security recipient: the bounce (its SES
 * feedback id, else the bounced message's id) and the address. A redelivered bounce notification
 * maps to the same id, so the operator is told once.
 */
export function securityBounceEventId(bounceId: string | null, recipient: string): string {
  return `${SECURITY_BOUNCE_DELIVERY_PREFIX}${bounceId ?? 'unidentified'}#${recipient.trim().toLowerCase()}`;
}
