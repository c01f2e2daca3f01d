import { SentinelError } from '../functions/shared/sentinelError';

/** The settings that point the CLI somewhere other than a local stack (a DynamoDB of one's own, a deployed stage). */
export const TARGET_SETTINGS = ['DYNAMODB_ENDPOINT', 'SENTINEL_TABLE_PREFIX', 'SENTINEL_STAGE', 'LINK_KEY_SECRET_PREFIX'] as const;

/**
 * The CLI found no running `npm start` where it looked and was pointed at nothing else: outside the
 * project folder it would otherwise fall through to AWS with no stage, and fail there with an
 * SDK credentials error that says nothing about why. Says where it looked and how to point it at
 * a local stack or a deployed stage.
 */
export class NoLocalStackError extends SentinelError {
  override readonly name = 'NoLocalStackError';
  constructor(servicesFile: string) {
    super('no local stack found', {
      details:
        `no running \`npm start\` recorded at ${servicesFile} (it writes that file while it runs; the folder is SENTINEL_STATE_DIR, default .sentinel in the current folder). ` +
        'Run the CLI in the project folder while `npm start` runs there, or set SENTINEL_STATE_DIR=<project folder>/.sentinel; ' +
        'for a deployed stage set SENTINEL_TABLE_PREFIX=sentinel-<stage>- (and AWS_REGION, with AWS credentials); for a DynamoDB of your own, DYNAMODB_ENDPOINT',
    });
  }
}
