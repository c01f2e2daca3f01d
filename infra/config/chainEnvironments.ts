/** The deployment stages; each talks to the chain environment of the same name. */
export const STAGE_NAMES = ['devnet', 'testnet', 'beta'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/**
 * REST base of each chain environment, as the chain's wire-format specification publishes them. The
 * node routes (`account-nonce`, `delegate-traders`, `transaction`) sit right below it; the indexer
 * sits under a path prefix of its own that the specification does not give (see `indexerPath` in
 * `stageConfig.ts`).
 */
export const CHAIN_REST_BASE: Readonly<Record<StageName, string>> = {
  devnet: 'https://devnet.rocket-cluster-1.com',
  testnet: 'https://testnet.rocket-cluster-1.com',
  beta: 'https://beta.rocket-cluster-1.com',
};
