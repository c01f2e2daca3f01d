import type { NotifyMessage } from '../messages/notifyMessage';
import { emailBase } from './emailParts';
import type { NoticePresenter } from './noticePresenter';
import { accountField } from './noticeParts';

type RevokeAllResult = Extract<NotifyMessage, { kind: 'revoke-all-result' }>;

function removedCount(message: RevokeAllResult): number {
  return message.units.filter((u) => u.outcome === 'revoked' || u.outcome === 'already-revoked').length;
}

/** What became of each key a revoke-all page listed. */
export const revokeAllResultPresenter: NoticePresenter<RevokeAllResult> = {
  head: () => ({ type: 'revocation.result', category: 'security', email: 'revoke-all-result', loads: { delegateViews: true } }),
  present(message, input) {
    const removed = removedCount(message);
    const all = removed === message.units.length;
    return {
      severity: all ? 'info' : 'critical',
      title: all ? `All ${message.units.length} API keys revoked` : `${message.units.length - removed} of ${message.units.length} API keys not revoked`,
      summary: all
        ? 'Every key the revoke-all page listed can no longer trade this account.'
        : 'Some keys may still trade this account; the revoke-all page can try the ones that sent nothing again.',
      fields: [accountField(input), ...message.units.slice(0, 8).map((u) => ({ label: u.address, value: u.text }))],
      links: [],
      incident: null,
      details: { units: message.units },
    };
  },
  email(message, input, mail) {
    return {
      kind: 'revoke-all-result',
      view: {
        ...emailBase(input, mail),
        rows: message.units.map((u) => ({
          name: mail.delegateName(u.address),
          address: u.address,
          kind: mail.isWebClient(u.address) ? 'web-session' : 'api-key',
          outcome: u.outcome,
          text: u.text.slice(0, 2_000),
          nonce: u.nonce,
        })),
        removed: removedCount(message),
        settledAtMs: message.at,
      },
    };
  },
};
