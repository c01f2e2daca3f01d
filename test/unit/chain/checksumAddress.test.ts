import { getAddress as ethersGetAddress } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checksumAddress, isHexAddress } from '../../../functions/domain/address';
import { addressSchema } from '../../../functions/domain/address';

/** The examples of EIP-55 itself. */
const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('checksumAddress', () => {
  it.each(EIP55)('gives the EIP-55 form %s from any case', (address) => {
    expect(checksumAddress(address.toLowerCase())).toBe(address);
    expect(checksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    expect(checksumAddress(address)).toBe(address);
  });

  it('agrees with ethers on random addresses in random case', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (bytes, upper) => {
        const hex = Buffer.from(bytes).toString('hex');
        const mixed = `0x${[...hex].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}`;
        expect(checksumAddress(mixed)).toBe(ethersGetAddress(`0x${hex}`));
      }),
      { numRuns: 300 },
    );
  });

  it.each(['', '0x', '0x123', `0x${'g'.repeat(40)}`, `${'a'.repeat(40)}`, `0x${'a'.repeat(41)}`, ` 0x${'a'.repeat(40)}`])('refuses %j', (value) => {
    expect(isHexAddress(value)).toBe(false);
    expect(() => checksumAddress(value)).toThrow(TypeError);
  });

  it('is what addressSchema returns, and what it refuses', () => {
    expect(addressSchema.parse(EIP55[0]?.toLowerCase())).toBe(EIP55[0]);
    expect(addressSchema.safeParse('0x123').error?.issues[0]?.message).toBe('not a 20-byte hex address');
  });

  it('refuses mixed case with a wrong EIP-55 checksum, and accepts all lower or all upper case', () => {
    const good = EIP55[0] as string;
    const flipped = `0x${[...good.slice(2)].map((c, i) => (i === good.slice(2).search(/[a-fA-F]/) ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('')}`;
    expect(flipped).not.toBe(good);
    expect(addressSchema.safeParse(flipped).error?.issues[0]?.message).toMatch(/checksum/);
    expect(addressSchema.parse(good.toLowerCase())).toBe(good);
    expect(addressSchema.parse(`0x${good.slice(2).toUpperCase()}`)).toBe(good);
    expect(addressSchema.parse(good)).toBe(good);
  });
});
