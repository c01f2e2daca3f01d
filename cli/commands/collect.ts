import type { Command } from 'commander';
import { parseAddressArgument } from '../readAddress';
import type { CollectOutcome } from '../../functions/services/collect/collectAccount';
import type { DispatchSelection } from '../../functions/services/collect/dispatchDue';
import { memoryCounters } from '../../functions/shared/observability';
import { sesSenderFrom } from '../../functions/runtime/factories';
import { localMailDeps, localMailGovernor } from '../../local/localSystem';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';
import { progressReporter } from '../progressReporter';
import { createNotifyHandler } from '../../functions/handlers/notify';
import { collectSettingsFrom } from '../../functions/services/collect/collectSettings';
import { createLocalPipeline } from '../../local/localPipeline';
import { refinementBudgetFrom } from '../../functions/services/collect/refinementBudget';
import { cliChannelQueues } from '../cliChannelQueues';
import { createLocalProtection } from '../../local/localProtection';

/** `sentinel collect`: one dispatch-and-collect cycle now, alerts included. */
export function register(program: Command, context: CliContext): void {
  program
    .command('collect')
    .description('run one dispatch-and-collect cycle now (the accounts that are due, or --all, or one --account), sending the alerts it raises')
    .option('--account <address>', 'collect only this account, due or not')
    .option('--all', 'collect every tracked account, due or not')
    .option('--json', 'print the outcomes as JSON')
    .action(async (options: { account?: string; all?: boolean; json?: boolean }) => {
      if (options.account !== undefined && options.all) throw new UsageError('--account and --all exclude each other');
      const selection = selectionOf(options);
      const rt = await context.runtime();
      if (selection.kind === 'account' && !(await rt.repos.accounts.get(selection.address))) {
        throw new Error(`${selection.address} is not tracked`);
      }
      const pipeline = await collectPipeline(rt);
      const progress = progressReporter(context.io, 'collected');
      const showProgress = selection.kind !== 'account' && (context.io.interactive || selection.kind === 'all');
      const { outcomes } = await pipeline.runCycle(selection, showProgress ? (done, total) => progress.update(done, total) : undefined);
      progress.finish();
      if (selection.kind !== 'account' && outcomes.length > 0) context.io.err(`${summary(outcomes, progress.elapsedSeconds())}\n`);
      if (options.json) return printJson(context.io, outcomes);
      if (outcomes.length === 0) return context.io.out('no account was due\n');
      const labels = new Map((await rt.repos.accounts.getMany(outcomes.map((o) => o.address))).map((a) => [a.address as string, a.label]));
      context.io.out(
        formatTable(
          ['LABEL', 'ACCOUNT', 'NEW POINTS', 'STATUS', 'NOTE'],
          outcomes.map((o) => [labels.get(o.address) ?? '', ...row(o)]),
        ),
      );
    });
}

/** `collected 40 accounts in 12.3 s: 38 ok, 2 failing; 3 alerts sent` */
function summary(outcomes: readonly CollectOutcome[], seconds: number): string {
  const counts = new Map<string, number>();
  let alerts = 0;
  for (const o of outcomes) {
    const key = o.kind === 'collected' || o.kind === 'chain-failed' ? o.status : o.kind;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (o.kind === 'collected') alerts += o.events;
  }
  const parts = [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
  return `collected ${plural(outcomes.length, 'account')} in ${seconds.toFixed(1)} s: ${parts}; ${plural(alerts, 'alert')} sent`;
}

/**
 * Only what one cycle needs: the chain client, the tables, the in-process collect, notify, fan-out
 * and channel queues with the deployed handlers, and the mail path of the alerts it raises, paced by
 * the mail-rate governor's alert share (no pages). Alerts go to every routed channel too. The
 * protection service and the signing handler run as in `serve`: a rule's automatic revocations
 * (`--revoke-unknown`, the kill switch) are queued on the decision queue, which the cycle drains
 * after collect, each delegate signed under the stage-wide switch the CLI reads (`protection`).
 */
async function collectPipeline(rt: CliRuntime) {
  const counters = memoryCounters();
  const now = () => rt.now();
  const chain = rt.chain();
  // Alerts go out at the alert share of MAIL_RATE, as in `npm start` and in AWS.
  const sender = localMailGovernor(rt.settings, counters).sender(sesSenderFrom(rt.settings), 'alert');
  const links = await rt.links();
  const mail = localMailDeps({ settings: rt.settings, repos: rt.repos, log: rt.log, counters, now }, links, chain, sender);
  // Bound late: a channel the worker marks broken is announced on the pipeline's notify queue (drained in rounds with it).
  const channels = cliChannelQueues(rt, links, counters, { send: (entries) => pipeline.notifyQueue.send(entries) });
  const { channelQueue } = channels;
  const pipeline = createLocalPipeline({
    repos: rt.repos,
    chain,
    log: rt.log,
    counters,
    now,
    notifyConsumer: createNotifyHandler({
      ...mail,
      repos: rt.repos,
      // The onboarding check's channel notice; the events' own channel jobs come from their fan-out.
      channelFanOut: { channels: rt.repos.channels, alerts: rt.repos.alerts, channelQueue, links },
    }),
    channels,
    collectSettings: collectSettingsFrom(rt.settings),
    refinementBudget: refinementBudgetFrom(rt.settings, now),
    visibilityTimeoutMs: 1_000,
    // Bound late: the signer reports on this pipeline's notify queue.
    revoke: (request) => protection.protect(request),
    drainDecisions: async () => {
      await protection.decisions.drain();
    },
  });
  const protection = createLocalProtection({
    settings: rt.settings,
    repos: rt.repos,
    chain,
    log: rt.log,
    counters,
    now,
    notify: pipeline.notify,
    protection: rt.protection(),
    visibilityTimeoutMs: 1_000,
  });
  return pipeline;
}

function selectionOf(options: { account?: string; all?: boolean }): DispatchSelection {
  if (options.all) return { kind: 'all' };
  if (options.account === undefined) return { kind: 'due' };
  return { kind: 'account', address: parseAddressArgument('--account', options.account) };
}

function row(outcome: CollectOutcome): string[] {
  switch (outcome.kind) {
    case 'collected':
      return [outcome.address, String(outcome.newPoints), outcome.status, outcome.events > 0 ? `${plural(outcome.events, 'alert')} sent` : ''];
    case 'chain-failed':
      return [outcome.address, '0', outcome.status, outcome.reason];
    case 'delegates-checked':
      return [outcome.address, '0', '', outcome.events > 0 ? `delegates checked, ${outcome.events} alert(s) sent` : 'delegates checked'];
    case 'delegates-failed':
      return [outcome.address, '0', '', `delegate watch failed: ${outcome.reason}`];
    case 'already-collected':
      return [outcome.address, '0', '', 'already collected for this time'];
    case 'not-tracked':
      return [outcome.address, '0', '', 'no longer tracked'];
  }
}
