/**
 * Who a notice goes to besides the account's recipients, as its presenter's head says: the
 * operators too (a result the breaker stopped: many accounts firing at once points to a data
 * fault, the operator's business), or one recipient alone (a snooze of their own alerts).
 */
export type NoticeAddressing = { readonly kind: 'operators-too' } | { readonly kind: 'recipient'; readonly email: string };
