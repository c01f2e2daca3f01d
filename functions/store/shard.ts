import { SCHEDULE_SHARDS } from './tableDefinitions';

/** All shard keys of the due-time indexes: `s0` … `s{SCHEDULE_SHARDS-1}`. */
export const SHARDS: readonly string[] = Array.from({ length: SCHEDULE_SHARDS }, (_, i) => `s${i}`);

/** The stable shard of an account (FNV-1a of the lower-cased address, mod SCHEDULE_SHARDS). */
export function shardOf(address: string): string {
  let hash = 0x811c9dc5;
  for (const char of address.toLowerCase()) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `s${hash % SCHEDULE_SHARDS}`;
}
