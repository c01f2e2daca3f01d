/** Three checksummed account addresses (the well-known development accounts 1 to 3), for tests that add accounts by address. */
export const SAMPLE_ADDRESSES = [
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
] as const;
