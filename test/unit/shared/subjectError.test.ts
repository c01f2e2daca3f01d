import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../functions/config/settings';
import { QueueError } from '../../../functions/queue/errors';
import { SubjectError } from '../../../functions/shared/subjectError';
import { MissingTableError, StoreError } from '../../../functions/store/errors';

describe('SubjectError', () => {
  it.each([
    {
      error: new ConfigError('ROCKET_NODE_URL', 'is required here but not set'),
      name: 'ConfigError',
      message: 'ROCKET_NODE_URL: is required here but not set',
      own: (e: unknown) => (e as ConfigError).variable,
    },
    {
      error: new QueueError('consume', 'the signing function did not run'),
      name: 'QueueError',
      message: 'consume: the signing function did not run',
      own: (e: unknown) => (e as QueueError).queue,
    },
    {
      error: new StoreError('accounts.create', 'ThrottlingException', { retryable: true }),
      name: 'StoreError',
      message: 'accounts.create: ThrottlingException',
      own: (e: unknown) => (e as StoreError).operation,
    },
  ])('$name reads "<subject>: <details>" and names its subject as before', ({ error, name, message, own }) => {
    expect(error).toBeInstanceOf(SubjectError);
    expect(error.name).toBe(name);
    expect(error.message).toBe(message);
    expect(`${error.subject}: ${error.details ?? ''}`).toBe(message);
    expect(error.shortMessage).toBe(error.subject);
    expect(own(error)).toBe(error.subject);
    expect(error.retryable).toBe(name === 'StoreError');
  });

  it('gives the subject and details as passed', () => {
    const error = new ConfigError('ROCKET_NODE_URL', 'is required here but not set');
    expect(error.message).toBe('ROCKET_NODE_URL: is required here but not set');
    expect(new StoreError('accounts.create', 'ThrottlingException').operation).toBe('accounts.create');
  });

  it('keeps the cause, is not retryable unless told, and a subclass of a subject error keeps its own name and subject', () => {
    const cause = new Error('socket hang up');
    const config = new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', 'is not JSON', { cause });
    expect(config.cause).toBe(cause);
    expect(config.retryable).toBe(false);
    const missing = new MissingTableError('accounts.get', 'sentinel-accounts', { cause });
    expect([missing.name, missing.operation, missing.message, missing.cause]).toEqual([
      'MissingTableError',
      'accounts.get',
      'accounts.get: table sentinel-accounts does not exist',
      cause,
    ]);
  });
});
