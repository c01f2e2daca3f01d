import { describe, expect, it } from 'vitest';
import type { KillSwitchAction } from '../../../functions/domain/killSwitchFiring';
import { notifyMessageSchema, type NotifyMessage } from '../../../functions/messages/notifyMessage';
import { noticeHead } from '../../../functions/notices/presentNotice';
import { renderedAlert } from '../../support/channels/noticeFixtures';

const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7';
const BOT = '0x0000000000000000000000000000000000000011';
const WEB = '0x0000000000000000000000000000000000000022';
const KEPT = '0x0000000000000000000000000000000000000033';
const AT = Date.UTC(2030, 0, 7, 9);

function message(action: KillSwitchAction): NotifyMessage {
  return notifyMessageSchema.parse({
    eventId: `kill-switch:${ACCOUNT.toLowerCase()}:${AT}`,
    account: ACCOUNT,
    at: AT,
    kind: 'kill-switch',
    firing: {
      levelPct: 30,
      drawdownPct: 31.2,
      rereadPct: 30.4,
      peakAt: AT - 86_400_000,
      asOf: AT,
      reason: 'kill-switch: drawdown 30.4% ≥ 30% at 2030-01-07T09:00:00.000Z',
      requested: [BOT, KEPT],
      keptWebSessions: [WEB],
      keptKeys: [KEPT],
      names: [
        { address: BOT, name: 'desk bot' },
        { address: KEPT, name: 'hedger' },
        { address: WEB, name: 'browser' },
      ],
      action,
    },
  });
}

const rendered = (m: NotifyMessage) => renderedAlert(m, 'kill-switch', 'https://sentinel.example/ra/abc');

describe('kill-switch notices, as email and in Slack', () => {
  it('a security notice (no one-click unsubscribe) that pages, in every outcome', () => {
    const protectionOff = message({ kind: 'requested', outcome: { kind: 'protection-off' } });
    expect(noticeHead(protectionOff)).toEqual({ type: 'protection.kill-switch', category: 'security', email: 'kill-switch', loads: { delegateCount: true } });
    const { notice } = rendered(protectionOff);
    expect(notice).toMatchObject({ type: 'protection.kill-switch', category: 'security', incident: { action: 'trigger' } });
  });

  it('revoked: lists the keys being revoked by name, names the kept keys as kept, says the drawdown now, what stays and how to re-arm; keeps the revoke-all link', () => {
    const { mail, notice, slackText } = rendered(message({ kind: 'requested', outcome: { kind: 'queued', decisionId: 'd', delegates: [BOT] } }));
    expect(mail.subject).toContain('Kill switch fired: 1 key being revoked');
    for (const body of [mail.text, slackText.replaceAll('\\"', '"')]) {
      expect(body).toContain(`"desk bot" (${BOT})`);
      expect(body).toMatch(/resting orders, TWAPs and open positions stay/);
      expect(body).toContain(`sentinel accounts rearm ${ACCOUNT}`);
      // The --keep-delegate key and the web session are named as kept, with their names.
      expect(body).toContain(`Kept, not revoked: "hedger" (${KEPT}) (--keep-delegate), "browser" (${WEB}) (web session)`);
      expect(body).toContain('is 31.20% now');
    }
    expect(mail.html).toContain('&quot;desk bot&quot;');
    expect(mail.text).toContain('Keys being revoked');
    // The revoke-all link stays while keys are being revoked: a person can act if the machine could not.
    expect(mail.html).toContain('https://sentinel.example/ra/abc');
    expect(mail.text).toContain('https://sentinel.example/ra/abc');
    expect(notice.links.map((l) => l.action)).toEqual(['revoke-all', 'preferences']);
  });

  it('a dry run says what it would have revoked; not revoked offers the revoke-all link and says why', () => {
    const dry = rendered(message({ kind: 'requested', outcome: { kind: 'dry-run', decisionId: 'd', delegates: [BOT] } }));
    expect(dry.mail.subject).toContain('would have fired (dry run)');
    expect(dry.mail.text).toContain('Keys it would have revoked');
    const capped = rendered(message({ kind: 'requested', outcome: { kind: 'capped', cap: '1 kill-switch firing per 24 hours' } }));
    expect(capped.mail.subject).toContain('keys NOT revoked');
    expect(capped.mail.text).toContain('1 kill-switch firing per 24 hours');
    expect(capped.mail.text).toContain('https://sentinel.example/ra/abc');
    expect(capped.notice.links.map((l) => l.action)).toEqual(['revoke-all', 'preferences']);
    expect(rendered(message({ kind: 'not-set-up' })).mail.text).toContain('not set up');
  });
});
