import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelDefinition } from '../../../functions/channels/channelRegistry';
import type { Address } from '../../../functions/domain/address';
import { CHANNEL_TYPES, routesTo, type ChannelRecord } from '../../../functions/domain/channel';
import { channelTakes, NO_CHANNEL_CONTROLS } from '../../../functions/domain/channelControls';
import type { FanOutLinks } from '../../../functions/notices/channelFanOut';
import { channelsTaking } from '../../../functions/notices/audience';
import { reportFanOut } from '../../../functions/notices/reportFanOut';
import { presentReport } from '../../../functions/notices/reportPresenter';
import { channelArb, controlsArb } from '../../support/channels/channelArbitraries';
import { channelRecordOf } from '../../support/channels/channelRecordFixture';
import { ACCOUNT } from '../../support/channels/noticeFixtures';
import { REPORT_NOW, reportModelOf } from '../../support/report/chatReportFixtures';
import { accountRecord } from '../../support/store/accountFixture';

const NOW = REPORT_NOW;
const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** A minter that writes what it was asked into the URL, so a test reads which channel each link names. */
const links: FanOutLinks = {
  build: (request) => `https://sentinel.example/${request.purpose}?channel=${'channel' in request ? String(request.channel) : ''}`,
};

const notice = (chart: boolean) =>
  presentReport(reportModelOf('desk', { address: ACCOUNT }), { id: `daily-report:${ACCOUNT}:2026-11-22`, chart, preferencesUrl: null });

/** The fan-out's decision over what its load read: the channels of `channels` taking the account's reports with `controls`. */
function fanOut(presented: ReturnType<typeof notice>, channels: readonly ChannelRecord[], controls = NO_CHANNEL_CONTROLS) {
  const account = accountRecord({ address: ACCOUNT as Address });
  return reportFanOut(presented, account, channelsTaking(channels, new Map([[account.address, controls]]), presented, NOW), links, NOW);
}

describe('reportFanOut', () => {
  it("the report once per channel taking the account's reports (routed, of a type taking reports, not muted), the same notice with that channel's Preferences link only, the chart where the type shows one", () => {
    fc.assert(
      fc.property(
        fc.tuple(...([0, 1, 2, 3] as const).map((i) => channelArb(i, [ACCOUNT, OTHER] as Address[], NOW))),
        controlsArb(NOW),
        fc.boolean(),
        (channels, controls, chart) => {
          const presented = notice(chart);
          const jobs = fanOut(presented, channels, controls);
          const expected = channels.filter(
            (c) => routesTo(c, ACCOUNT, 'reports') && channelDefinition(c.type).limits.takes('reports') && channelTakes(controls, c.name, presented, NOW),
          );
          expect(jobs.map((j) => j.channel.name)).toEqual(expected.map((c) => c.name));
          for (const job of jobs) {
            expect({ ...job.notice, links: [] }).toEqual(presented);
            expect(job.notice.links).toEqual([
              { label: 'Preferences', url: `https://sentinel.example/channel-preferences?channel=${job.channel.name}`, action: 'preferences' },
            ]);
            expect(job.withChart).toBe(chart && channelDefinition(job.channel.type).limits.showsChart);
          }
        },
      ),
    );
  });

  it('never a pager, and nothing for a channel routed only other accounts', () => {
    const channels = [
      ...CHANNEL_TYPES.map((type) => channelRecordOf({ name: type, type, secret: 'env:X', categories: ['reports'] }, NOW)),
      channelRecordOf({ name: 'elsewhere', type: 'slack', secret: 'env:X', categories: ['reports'], accounts: [OTHER as Address] }, NOW),
    ];
    const names = fanOut(notice(true), channels).map((j) => j.channel.name);
    expect(names).not.toContain('pagerduty');
    expect(names).not.toContain('elsewhere');
    expect(names).toContain('slack');
  });
});
