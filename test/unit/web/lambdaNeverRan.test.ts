import { describe, expect, it } from 'vitest';
import { lambdaNeverRan } from '../../../functions/web/lambdaNeverRan';

describe('lambdaNeverRan', () => {
  it.each([
    ['TooManyRequestsException', 'busy'],
    ['ResourceNotFoundException', 'missing'],
    ['AccessDeniedException', 'denied'],
    ['AccessDenied', 'denied'],
  ] as const)('%s proves the function never ran: %s', (name, refusal) => {
    expect(lambdaNeverRan(name)).toBe(refusal);
  });

  it('leaves every other failure unknown, an inherited property name included', () => {
    for (const name of ['TimeoutError', 'ServiceException', 'error', 'constructor', 'toString', '__proto__']) {
      expect(lambdaNeverRan(name), name).toBeUndefined();
    }
  });
});
