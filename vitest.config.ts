import { defineConfig } from 'vitest/config';

/**
 * The test tiers, each runnable alone (`npm run test:unit`, `test:integration`, `test:infra`,
 * `test:e2e`; `npm test` runs them all):
 * - `unit`: pure logic and in-process adapters; no global setup, no DynamoDB Local, SES or simulator;
 * - `integration`: DynamoDB Local, local SES and the chain simulator (started once by the global setup);
 * - `infra`: CDK synth, bundles and policies;
 * - `e2e`: headless Chromium and `npm start`.
 *
 * A test file not named here runs in `integration`, the tier with every local service: a new test
 * never runs without what it needs. A file listed in `UNIT_TESTS` that reaches for a service fails
 * there at once (no endpoint is provided), so the list can't drift silently.
 */
const UNIT_TESTS: readonly string[] = [
  'test/runtime/revokeAllLinksSetting.test.ts',
  'test/channels/unknownKeyNotice.test.ts',
  'test/domain/protectionArming.test.ts',
  'test/domain/destinationPacer.test.ts',
  'test/domain/killSwitchDecision.test.ts',
  'test/domain/judgeNewDelegates.test.ts',
  'test/bench/chaosTally.test.ts',
  'test/domain/combinedNotice.test.ts',
  'test/domain/onboardingBreaches.test.ts',
  'test/protection/runDecisionUnit.test.ts',
  'test/shared/sentinelError.test.ts',
  'test/domain/killSwitchReread.test.ts',
  'test/domain/killSwitchNotice.test.ts',
  'test/channels/killSwitchNotice.test.ts',
  'test/store/legacyCurveReader.test.ts',
  'test/bench/costArgs.test.ts',
  'test/chain/canonical.test.ts',
  'test/chain/chainClient.test.ts',
  'test/chain/checksumAddress.test.ts',
  'test/chain/ethereumKeys.test.ts',
  'test/chain/kmsSigner.test.ts',
  'test/chain/resolveSigner.test.ts',
  'test/chain/retryAfter.test.ts',
  'test/chain/summaryView.test.ts',
  'test/shared/rateLimiter.test.ts',
  'test/chain/urls.test.ts',
  'test/chain/workedExample.test.ts',
  'test/channels/renderers.test.ts',
  'test/channels/sender.test.ts',
  'test/cli/readTextFile.test.ts',
  'test/domain/account.test.ts',
  'test/domain/alertMachine.test.ts',
  'test/domain/dayFigures.test.ts',
  'test/domain/delegateAlerts.test.ts',
  'test/domain/delegateMark.test.ts',
  'test/domain/drawdown.test.ts',
  'test/domain/drawdownRollup.test.ts',
  'test/domain/expiryCountdown.test.ts',
  'test/domain/flowPlacement.test.ts',
  'test/domain/linkClaims.test.ts',
  'test/domain/localTime.test.ts',
  'test/domain/lookbackWindow.test.ts',
  'test/domain/pollOverdue.test.ts',
  'test/domain/reportClaim.test.ts',
  'test/domain/reportModel.test.ts',
  'test/domain/reportTime.test.ts',
  'test/domain/reportWindows.test.ts',
  'test/domain/revokeAllUnit.test.ts',
  'test/domain/schedule.test.ts',
  'test/domain/series.test.ts',
  'test/domain/signerRef.test.ts',
  'test/domain/staleness.test.ts',
  'test/domain/summaryDelta.test.ts',
  'test/domain/summaryMetrics.test.ts',
  'test/domain/timeZoneName.test.ts',
  'test/domain/trackedAccount.test.ts',
  'test/links/actionLinks.test.ts',
  'test/links/linkToken.test.ts',
  'test/links/linkKeys.test.ts',
  'test/links/publishKeys.test.ts',
  'test/mail/chart.test.ts',
  'test/mail/format.test.ts',
  'test/mail/inlineCss.test.ts',
  'test/mail/mime.test.ts',
  'test/mail/precompiledTemplates.test.ts',
  'test/mail/render.test.ts',
  'test/queue/inProcessQueue.test.ts',
  'test/queue/inProcessQueueConcurrency.test.ts',
  'test/queue/sqsBatch.test.ts',
  'test/queue/sqsQueue.test.ts',
  'test/report/digestOrder.test.ts',
  'test/report/recipientSchedule.test.ts',
  'test/report/reportJob.test.ts',
  'test/report/reportPlan.test.ts',
  'test/revocation/revocationSigners.test.ts',
  'test/runtime/handlerSettings.test.ts',
  'test/runtime/lambdaCredentials.test.ts',
  'test/runtime/linkSecret.test.ts',
  'test/mail/mailRate.test.ts',
  'test/runtime/pageSecurity.test.ts',
  'test/runtime/sqsHandler.test.ts',
  'test/shared/backoff.test.ts',
  'test/shared/describeError.test.ts',
  'test/sim/demo.test.ts',
  'test/sim/faults.test.ts',
  'test/sim/model.test.ts',
  'test/store/drawdownRollupItem.test.ts',
  'test/web/csrfToken.test.ts',
  'test/web/formBody.test.ts',
  'test/web/pages.test.ts',
  'test/web/sameOrigin.test.ts',
  'test/web/webRequest.test.ts',
];

/** Synth, bundling and IAM policy tests. */
const INFRA_TESTS: readonly string[] = ['test/infra/**/*.test.ts'];

/** Browser and whole-system tests. */
const E2E_TESTS: readonly string[] = ['test/e2e/**/*.test.ts', 'test/cli/binary.test.ts', 'test/local/npmStart.test.ts', 'test/mail/screenshot.test.ts'];

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
