import type { Command } from 'commander';
import { parseAddressArgument } from '../readAddress';
import { SUMMARY_FIELDS } from '../../functions/domain/summaryFields';
import { SUMMARY_METRICS, TRADING_DRAWDOWN_LABEL } from '../../functions/domain/summaryMetrics';
import { summaryReadings, summaryView } from '../../functions/chain/summaryView';
import { formatCountdown, formatDelta, formatValue } from '../../functions/mail/render/format';
import { lastPollText } from '../lastPollText';
import { accountStatus, type AccountStatusReport } from '../../functions/services/status/accountStatus';
import { describeAlertState } from '../alertStateText';
import type { CliContext } from '../cliRuntime';
import { killSwitchText } from '../../functions/domain/account';
import type { ProtectionState } from '../../functions/domain/protectionSwitch';
import { killSwitchStateText } from '../../functions/domain/killSwitchStateText';
import { unknownKeyDecisionText } from '../../functions/domain/unknownKeyDecisionText';
import { protectionStatus, type ProtectionStatus } from '../../functions/services/status/protectionStatus';
import { formatTable, printJson } from '../output';

/** `sentinel status <address>`: what is known about an account, from stored data. */
export function register(program: Command, context: CliContext): void {
  program
    .command('status')
    .argument('<address>', 'a tracked account')
    .description('latest equity and PnL, summary and its change, drawdown, alert states, delegates, collection status and stored points')
    .option('--json', 'print one JSON document')
    .action(async (address: string, options: { json?: boolean }) => {
      const checksummed = parseAddressArgument('address', address);
      const rt = await context.runtime();
      const report = await accountStatus(rt.repos, checksummed, rt.now());
      if (!report) throw new Error(`${checksummed} is not tracked`);
      const automatic = await protectionStatus(rt.repos, report.account);
      if (options.json)
        return printJson(context.io, {
          ...report,
          protection: await rt.protection().read(),
          killSwitchState: automatic.killSwitch?.state ?? null,
          killSwitchResult: automatic.killSwitch?.settlement ?? null,
          unknownKeyDecisions: automatic.unknownKeys,
        });
      const timeZone = (await rt.repos.accounts.get(checksummed))?.timezone ?? 'UTC';
      context.io.out(render(report, rt.now(), timeZone, await rt.protection().read(), automatic));
    });
}

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

function render(r: AccountStatusReport, now: number, timeZone: string, protection: ProtectionState, automatic: ProtectionStatus): string {
  const a = r.account;
  const lines = [
    `${a.label ? `${a.label} ` : ''}${a.address}`,
    `status        ${a.status}${a.statusReason ? ` (${a.statusReason})` : ''}`,
    `equity        ${r.latest?.equity ?? '-'}   pnl ${r.latest?.pnl ?? '-'}   at ${iso(r.latest?.at ?? null)}`,
    `curve points  ${r.points.count} at ${a.interval}, newest ${iso(r.points.newestAt)}`,
    `last poll     ${lastPollText(r.lastPoll, r.lastSuccessfulPollAt)}${r.lastPoll.outcome === 'failed' ? `; last success ${iso(r.lastSuccessfulPollAt)}` : ''}`,
    `drawdown      ${r.drawdown ? `${TRADING_DRAWDOWN_LABEL}: ${r.drawdown.currentPct.toFixed(2)}% now (−$${r.drawdown.dollarDrawdown.toFixed(2)} since the peak at ${iso(r.drawdown.peakAt)}), ${r.drawdown.maxPct.toFixed(2)}% deepest` : '-'}`,
    `revocation    ${a.signer ? `one-click, signer ${a.signer}` : 'not configured (no signer)'}`,
    `kill switch   ${killSwitchText(a)}${a.killSwitch !== null && protection === 'off' ? ' — automatic actions are OFF stage-wide: it only alerts' : ''}`,
    ...(automatic.killSwitch === null ? [] : [`              ${killSwitchStateText(automatic.killSwitch.state, a.address, automatic.killSwitch.settlement)}`]),
    `unknown keys  ${a.revokeUnknown === 'off' ? 'off (only noticed)' : `revoke-unknown ${a.revokeUnknown}: see "sentinel delegates list ${a.address}"`}`,
    ...automatic.unknownKeys.map((u) => `              ${unknownKeyDecisionText(u)}`),
    '',
  ];
  if (r.summary) {
    lines.push(
      `summary (the chain's figures from daily points, ${r.summarySampling} apart at each UTC midnight since tracking began: Sharpe, volatility and max drawdown mean little over a few of them)`,
    );
    const readings = summaryReadings(r.summary);
    const received = summaryView(r.summary);
    const rows = SUMMARY_FIELDS.map((f) => {
      const info = SUMMARY_METRICS[f];
      const reading = readings[f];
      // Units by rule (a win rate of 0.4954 is 49.54%); a value that fits no rule is shown as received, with no change.
      const value = reading.kind === 'number' ? formatValue(reading.value, info.unit) : reading.text;
      // The stored delta is of the numbers as received: rescaled like the value (a fraction's change in percent points).
      const { value: raw, percent } = received[f];
      const change = r.summaryDelta?.[f] ?? null;
      const scale = f === 'winRate' && !percent && raw >= 0 && raw <= 1 ? 100 : 1;
      const delta = reading.kind === 'number' && change !== null ? change * scale : null;
      return [info.label, value, formatDelta(delta, info.unit, info.better, 'sign').text];
    });
    lines.push(formatTable(['METRIC', 'VALUE', 'CHANGE'], rows));
  }
  if (r.alerts.length > 0) {
    lines.push(`alert states (times in ${timeZone})`);
    lines.push(
      formatTable(
        ['RULE', 'STATE'],
        r.alerts.flatMap((s) =>
          describeAlertState(s.rule, s.state, now, timeZone, { address: a.address, killSwitchSettlement: automatic.killSwitch?.settlement ?? null }),
        ),
      ),
    );
  }
  const active = r.delegates.filter((d) => d.removedAt === null);
  lines.push(`delegates (${active.length})`);
  if (active.length > 0) {
    lines.push(
      formatTable(
        ['NAME', 'ADDRESS', 'KIND', 'EXPIRES'],
        active.map((d) => [d.name ?? '-', d.address, d.kind, formatCountdown(d.expiryMs, now)]),
      ),
    );
  }
  if (r.revocations.length > 0) {
    lines.push('revocations (audit trail, newest first)');
    lines.push(
      formatTable(
        ['AT', 'DELEGATE', 'OUTCOME', 'NONCE', 'TX HASH'],
        r.revocations.map((e) => [iso(e.at), e.delegate ?? '-', e.outcome, e.nonce === null ? '-' : String(e.nonce), e.txHash ?? '-']),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}
