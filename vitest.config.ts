import { defineConfig } from 'vitest/config';
import SuiteSequencer from './test/support/suiteSequencer';

/**
 * The test tiers, each runnable alone (`npm run test:unit`, `test:integration`, `test:infra`,
 * `test:e2e`; `npm test` runs them all):
 * - `unit`: pure logic and in-process adapters; no global setup, no DynamoDB Local, SES or simulator;
 *   its files share one module graph per worker (`isolate: false`: about 19 s instead of 63-71 s here),
 *   so a unit test leaves no module state behind;
 * - `integration`: DynamoDB Local, local SES and the chain simulator (started once by the global setup);
 *   its files share one module graph per worker too (`isolate: false`: `test/integration/store` imports
 *   in 2.6 s instead of 23-34 s), so an integration test restores what it changes (environment
 *   variables it sets are its own, fake timers are put back) and takes its own table prefix;
 * - `infra`: CDK synth, bundles and policies; one module graph per worker (`isolate: false`, aws-cdk-lib
 *   loaded once, and a stage synthesized once per worker for the files that ask for the same context);
 *   each in-process synth takes its bundles from the test bundle cache
 *   (`test/support/infra/bundleCache.ts`) when they were built before from the same sources;
 * - `e2e`: headless Chromium and `npm start`; one module graph per worker too (`isolate: false`: the tier
 *   alone took 167 s instead of 219 s here, its imports 15 s of worker time instead of 42 s), so an e2e
 *   test, like an integration test, restores what it changes.
 *
 * The tier is the test's first folder: `test/<tier>/<source path>`, where the source path mirrors
 * `functions/` (its `functions/` prefix dropped), `cli/`, `local/`, `bench/`; the `infra` tier
 * mirrors `infra/`. Shared helpers live in `test/support/`. A test file outside the four tier
 * folders still runs, in `integration`, the tier with every local service, and
 * `test/unit/testLayout.test.ts` fails on it. A unit test that reaches for a service fails at once
 * (no endpoint is provided).
 */
const UNIT_TESTS: readonly string[] = ['test/unit/**/*.test.ts'];

/** Synth, bundling and IAM policy tests. */
const INFRA_TESTS: readonly string[] = ['test/infra/**/*.test.ts'];

/** Browser and whole-system tests. */
const E2E_TESTS: readonly string[] = ['test/e2e/**/*.test.ts'];

const ALL = ['test/**/*.test.ts'];
const SERVICES = ['test/support/globalSetup.ts'];
/** The infra tier's cloud-assembly folder, removed when the run ends. */
const SYNTH_DIR = 'test/support/infra/synthDirSetup.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    // Two workers on the two cores the suite is budgeted for. Three were tried (the CPU stood a
    // quarter idle with two): the CPU-bound files (synths, bundles) slowed by more than the waiting
    // files gained (vitest 695 s against 665 s with two).
    maxWorkers: 2,
    reporters: ['default', './test/support/summaryLineReporter.ts', './test/support/slowFilesReporter.ts'],
    // The handlers' bundles are built first, beside the e2e files (see the sequencer).
    sequence: { sequencer: SuiteSequencer },
    // The AWS SDK warns about Node 20 in every worker; the Lambda runtime is Node 22.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: [...UNIT_TESTS], testTimeout: 30_000, isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL,
          exclude: [...UNIT_TESTS, ...INFRA_TESTS, ...E2E_TESTS],
          globalSetup: SERVICES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'infra', include: [...INFRA_TESTS], globalSetup: [SYNTH_DIR], testTimeout: 30_000, hookTimeout: 60_000, isolate: false },
      },
      { extends: true, test: { name: 'e2e', include: [...E2E_TESTS], globalSetup: SERVICES, testTimeout: 30_000, hookTimeout: 60_000, isolate: false } },
    ],
  },
});
