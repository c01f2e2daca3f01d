import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../functions/config/settings';
import { QueueError } from '../../../functions/queue/errors';
import { SubjectError } from '../../../functions/shared/subjectError';
import { MissingTableError, StoreError } from '../../../functions/store/errors';

describe('SubjectError', () => {
  it('reads "<subject>: <details>" for a setting, a queue and a store operation, each naming its subject as before', () => {
    const config = new ConfigError('ROCKET_NODE_URL', 'is required here but not set');
    expect([config.message, config.name, config.variable, config.subject]).toEqual([
      'ROCKET_NODE_URL: is required here but not set',
      'ConfigError',
      'ROCKET_NODE_URL',
      'ROCKET_NODE_URL',
    ]);
    const queue = new QueueError('consume', 'the signing function did not run');
    expect([queue.message, queue.name, queue.queue, queue.shortMessage]).toEqual([
      'consume: the signing function did not run',
      'QueueError',
      'consume',
      'consume',
    ]);
    const store = new StoreError('accounts.create', 'ThrottlingException', { retryable: true });
    expect([store.message, store.name, store.operation, store.details, store.retryable]).toEqual([
      'accounts.create: ThrottlingException',
      'StoreError',
      'accounts.create',
      'ThrottlingException',
      true,
    ]);
    for (const error of [config, queue, store]) expect(error).toBeInstanceOf(SubjectError);
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
