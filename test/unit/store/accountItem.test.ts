import { describe, expect, it } from 'vitest';
import { accountPatchSchema } from '../../../functions/store/accountItem';

describe('accountPatchSchema', () => {
  it('fills in no field a patch does not name (a read default would overwrite the stored setting)', () => {
    expect(accountPatchSchema.parse({})).toEqual({});
    expect(accountPatchSchema.parse({ nextDueAt: 5 })).toEqual({ nextDueAt: 5 });
    expect(accountPatchSchema.parse({ label: 'x' })).toEqual({ label: 'x' });
  });
});
