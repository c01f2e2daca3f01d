import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The first infra file to synthesize a stack bundles every handler (about 45 s of CPU on a clean
 * clone); the other infra files then take the bundles from the shared cache
 * (`test/support/infra/bundleCache.ts`). Started with the tiers' order, two of them met there and
 * one worker waited on the other's bundles for as long. This one runs first, beside the e2e files,
 * so the rest of the infra tier finds the cache filled. Otherwise vitest's own order.
 */
const BUNDLES_FIRST = 'test/infra/config/stacks.test.ts';

export default class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = sorted.filter((spec) => spec.moduleId.endsWith(BUNDLES_FIRST));
    return [...first, ...sorted.filter((spec) => !first.includes(spec))];
  }
}
