import { inject } from 'vitest';
import { createCliRuntime, type CliContext } from '../../../cli/cliRuntime';
import { runCli } from '../../../cli/main';
import { loadSettings } from '../../../functions/config/settings';

/** Result of one in-process CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sentinel` commands in-process against this file's tables, the run's DynamoDB Local and
 * local SES, and the given chain URLs, exactly as the binary would with that environment; `sleep`
 * (a simulated clock's, with its `now`) is how the commands wait.
 */
export function cliRunner(env: Record<string, string>, now: () => number = Date.now, protectionFile?: string, sleep?: (ms: number) => Promise<void>) {
  const fullEnv = {
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SES_ENDPOINT: inject('sesEndpoint'),
    PUBLIC_BASE_URL: 'http://127.0.0.1:9',
    SENTINEL_LINK_SECRET: 'test-link-secret-0123456789abcdef0123456789',
    MAIL_FROM: 'sentinel@example.com',
    ...env,
  };
  return async (...argv: string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const context: CliContext = {
      runtime: async () => createCliRuntime(loadSettings(fullEnv), now, protectionFile, sleep),
      io: { out: (t) => void (stdout += t), err: (t) => void (stderr += t), interactive: false },
    };
    const code = await runCli(argv, context);
    return { code, stdout, stderr };
  };
}
