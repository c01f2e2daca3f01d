import { describe, expect, it } from 'vitest';
import { ChainHttpError } from '../../../functions/chain/errors';
import { walkCauses } from '../../../functions/shared/sentinelError';
import { StoreError } from '../../../functions/store/errors';

const http = () => new ChainHttpError({ request: 'GET /portfolio', status: 503, body: 'busy', attempts: 3 });

describe('walk', () => {
  it('finds the first error of the chain that matches, the outer one included', () => {
    const inner = http();
    const outer = new StoreError('accounts.get', 'wrapped', { cause: new Error('middle', { cause: inner }) });
    expect(outer.walk((e) => e instanceof ChainHttpError)).toBe(inner);
    expect(outer.walk((e) => e instanceof StoreError)).toBe(outer);
    expect(outer.walk((e) => e instanceof TypeError)).toBeNull();
  });

  it('without a predicate gives the innermost cause, even a thrown value that is not an Error', () => {
    const outer = new StoreError('accounts.get', 'wrapped', { cause: new Error('middle', { cause: 'socket hang up' }) });
    expect(outer.walk()).toBe('socket hang up');
    expect(http().walk()).toBeInstanceOf(ChainHttpError);
  });

  it('stops on a cycle of causes', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    expect(walkCauses(a, (e) => e === 'never')).toBeNull();
    expect(walkCauses(a)).toBe(b);
  });
});
