import { defineConfig } from 'vitest/config';
import { E2E_TESTS, INFRA_TESTS, UNIT_TESTS } from './test/tiers';

const ALL = ['test/**/*.test.ts'];
const SERVICES = ['test/support/globalSetup.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summaryLineReporter.ts'],
    // The AWS SDK warns about Node 20 in every worker; the Lambda runtime is Node 22.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: [...UNIT_TESTS], testTimeout: 30_000 } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL,
          exclude: [...UNIT_TESTS, ...INFRA_TESTS, ...E2E_TESTS],
          globalSetup: SERVICES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { extends: true, test: { name: 'infra', include: [...INFRA_TESTS], testTimeout: 30_000, hookTimeout: 60_000 } },
      { extends: true, test: { name: 'e2e', include: [...E2E_TESTS], globalSetup: SERVICES, testTimeout: 30_000, hookTimeout: 60_000 } },
    ],
  },
});
