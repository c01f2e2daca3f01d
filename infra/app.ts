import { App } from 'aws-cdk-lib';
import { StageConfigError } from './config/stageConfig';
import { buildSentinelApp } from './sentinelApp';

// The CDK app (`cdk.json`: `npx tsx infra/app.ts`): `npx cdk synth -c stage=testnet`.
const app = new App();
try {
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  buildSentinelApp(app, { env: { ...(account ? { account } : {}), ...(region ? { region } : {}) } });
} catch (err) {
  if (!(err instanceof StageConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
app.synth();
