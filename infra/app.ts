import { App } from 'aws-cdk-lib';
import { StageConfigError, loadStageConfig } from './config/stageConfig';

// The CDK app (`cdk.json`: `node --import tsx infra/app.ts`): `npx cdk synth -c stage=testnet`.
const app = new App();
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
try {
  // The context is checked before the stacks' modules load: a bad value fails in about a second.
  loadStageConfig((key) => app.node.tryGetContext(key));
  const { buildSentinelApp } = await import('./sentinelApp');
  buildSentinelApp(app, { env: { ...(account ? { account } : {}), ...(region ? { region } : {}) } });
} catch (err) {
  if (!(err instanceof StageConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
app.synth();
