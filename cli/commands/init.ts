import type { Command } from 'commander';
import { dynamoDbClientFrom } from '../../functions/runtime/factories';
import { createTables } from '../../functions/store/createTables';
import type { CliContext } from '../cliRuntime';
import { formatTable, printJson } from '../output';
import { moveLegacyKnownKeys } from '../../functions/services/knownKeys/moveLegacyKnownKeys';
import { legacyMoveText } from './delegates';

/**
 * `sentinel init`: creates the tables on the configured DynamoDB (`DYNAMODB_ENDPOINT`, or the
 * one of a running `npm start`), or adds what they lack, as `npm start` does; running it again
 * changes nothing; then moves what an earlier version kept elsewhere (`delegates move-legacy`).
 * Without a DynamoDB endpoint the target is AWS, where the deployed stack owns the tables: it says
 * so and exits 0 without touching anything (there, run `sentinel delegates move-legacy` once).
 */
export function register(program: Command, context: CliContext): void {
  program
    .command('init')
    .description('create or update the tables on the configured DynamoDB (DYNAMODB_ENDPOINT), as npm start does; safe to run again')
    .option('--json', 'print what was done to each table as JSON')
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const prefix = rt.settings.SENTINEL_TABLE_PREFIX;
      if (rt.settings.DYNAMODB_ENDPOINT === undefined) {
        const note = `no DYNAMODB_ENDPOINT: in AWS the deployed stack creates and owns the tables (prefix "${prefix}"); nothing to do`;
        if (options.json) return printJson(context.io, { endpoint: null, tables: {}, note });
        return context.io.out(`${note}\n`);
      }
      const outcomes = await createTables(dynamoDbClientFrom(rt.settings), prefix);
      // Items an earlier version kept elsewhere: moved where this version reads them.
      const moved = await moveLegacyKnownKeys({ accounts: rt.repos.accounts, knownDelegates: rt.repos.knownDelegates });
      if (options.json) return printJson(context.io, { endpoint: rt.settings.DYNAMODB_ENDPOINT, tables: outcomes, moved });
      const rows = Object.entries(outcomes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([table, outcome]) => [table, outcome]);
      context.io.out(formatTable(['TABLE', 'OUTCOME'], rows));
      if (moved.accounts > 0) context.io.out(`${legacyMoveText(moved)}\n`);
    });
}
