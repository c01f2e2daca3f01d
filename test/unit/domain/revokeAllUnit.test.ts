import { describe, expect, it } from 'vitest';
import { revocationRequestSchema } from '../../../functions/domain/revocationOutcome';
import { batchPending, revokeAllUnitId, unitSubmittable } from '../../../functions/domain/revokeAllUnit';

const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7';
const DELEGATE = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const OTHER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('revoke-all units', () => {
  it('derive one token id per link and delegate, fit for a revocation request, the same for any casing', () => {
    const id = revokeAllUnitId('link-token-id-0123456789', DELEGATE);
    expect(id).toBe(revokeAllUnitId('link-token-id-0123456789', DELEGATE.toLowerCase()));
    expect(id).not.toBe(revokeAllUnitId('link-token-id-0123456789', OTHER));
    expect(id).not.toBe(revokeAllUnitId('link-token-id-0123456780', DELEGATE));
    expect(revocationRequestSchema.safeParse({ account: ACCOUNT, delegate: DELEGATE, tokenId: id, token: 'v2.signed-revoke-all-link' }).success).toBe(true);
  });

  it('are submitted again only when their last attempt sent nothing and may succeed later', () => {
    const at = 1;
    expect(unitSubmittable(undefined)).toBe(true);
    expect(unitSubmittable({ state: 'queued', attempt: 1, at })).toBe(false);
    expect(unitSubmittable({ state: 'unknown', attempt: 1, at, message: 'lost' })).toBe(false);
    expect(unitSubmittable({ state: 'done', attempt: 1, at, outcome: { kind: 'busy', sent: false } })).toBe(true);
    expect(unitSubmittable({ state: 'done', attempt: 2, at, outcome: { kind: 'chain-unreachable', sent: false, message: 'down' } })).toBe(true);
    expect(unitSubmittable({ state: 'done', attempt: 1, at, outcome: { kind: 'already-revoked', sent: false } })).toBe(false);
    expect(unitSubmittable({ state: 'done', attempt: 1, at, outcome: { kind: 'not-authorized', sent: false } })).toBe(false);
    expect(unitSubmittable({ state: 'done', attempt: 1, at, outcome: { kind: 'revoked', sent: true, nonce: 1, transactionSignature: '0xab' } })).toBe(false);
    expect(
      unitSubmittable({ state: 'done', attempt: 1, at, outcome: { kind: 'rejected', sent: true, nonce: 1, transactionSignature: '0xab', message: 'no' } }),
    ).toBe(false);
  });

  it('keep a batch pending while any unit is queued', () => {
    expect(batchPending({})).toBe(false);
    expect(batchPending({ [DELEGATE]: { state: 'queued', attempt: 1, at: 1 }, [OTHER]: { state: 'unknown', attempt: 1, at: 1, message: 'x' } })).toBe(true);
    expect(batchPending({ [DELEGATE]: { state: 'done', attempt: 1, at: 1, outcome: { kind: 'busy', sent: false } } })).toBe(false);
  });
});
