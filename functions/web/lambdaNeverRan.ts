/** Why a synchronous Lambda invoke proves the function never ran. */
export type NeverRan = 'busy' | 'missing' | 'denied';

const BY_ERROR_NAME: Readonly<Record<string, NeverRan>> = {
  TooManyRequestsException: 'busy',
  ResourceNotFoundException: 'missing',
  AccessDeniedException: 'denied',
  AccessDenied: 'denied',
};

/**
 * The refusal an invoke error (by its `name`) stands for when Lambda proves the function never
 * ran; `undefined` when it may have run (network, timeout, 5xx), so its effect is unknown.
 */
export function lambdaNeverRan(errorName: string): NeverRan | undefined {
  return Object.hasOwn(BY_ERROR_NAME, errorName) ? BY_ERROR_NAME[errorName] : undefined;
}
