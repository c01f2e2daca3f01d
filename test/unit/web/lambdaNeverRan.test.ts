import { describe, expect, it } from 'vitest';
import { lambdaNeverRan } from '../../../functions/web/lambdaNeverRan';

describe('lambdaNeverRan', () => {
  it('names the refusals that prove the function never ran', () => {
    expect(lambdaNeverRan('TooManyRequestsException')).toBe('busy');
    expect(lambdaNeverRan('ResourceNotFoundException')).toBe('missing');
    expect(lambdaNeverRan('AccessDeniedException')).toBe('denied');
    expect(lambdaNeverRan('AccessDenied')).toBe('denied');
  });

  it('leaves every other failure unknown, an inherited property name included', () => {
    for (const name of ['TimeoutError', 'ServiceException', 'error', 'constructor', 'toString', '__proto__']) {
      expect(lambdaNeverRan(name), name).toBeUndefined();
    }
  });
});
