import type { Command } from 'commander';
import { setProtection } from '../../functions/services/protection/setProtection';
import type { CliContext } from '../cliRuntime';
import { operator } from '../operator';

/** `sentinel protection on|off|status`: the stage-wide switch of automatic protective actions. */
export function register(program: Command, context: CliContext): void {
  const protection = program
    .command('protection')
    .description('the stage-wide switch of automatic protective actions (kill switch, unknown-key revocation); off on a new stage');
  for (const state of ['on', 'off'] as const) {
    protection
      .command(state)
      .description(
        state === 'on'
          ? 'allow automatic actions on accounts armed for them (takes effect within a minute)'
          : 'stop every automatic action at once (clicked links still work)',
      )
      .action(async () => {
        const rt = await context.runtime();
        const change = await setProtection({ protection: rt.protection(), audit: rt.repos.audit, now: () => rt.now() }, { state, by: operator() });
        context.io.out(change.kind === 'changed' ? `protection ${change.from} → ${change.to} (audited)\n` : `protection is already ${change.state}\n`);
      });
  }
  protection
    .command('status')
    .description('whether automatic actions are on for this stage, and where the switch lives')
    .action(async () => {
      const rt = await context.runtime();
      const switchOf = rt.protection();
      const state = await switchOf.read();
      context.io.out(
        `protection ${state} (${switchOf.location})\n${state === 'off' ? 'automatic actions are off stage-wide: armed accounts only alert\n' : ''}`,
      );
    });
}
