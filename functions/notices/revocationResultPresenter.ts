import type { NotifyMessage } from '../messages/notifyMessage';
import { emailBase } from './emailParts';
import { delegateIncidentKey } from './newDelegatePresenter';
import type { NoticePresenter } from './noticePresenter';
import { accountField, revokeLinks, who } from './noticeParts';

const TX_SIGNATURE = /^0x[0-9a-fA-F]+$/;

/** What became of a revocation someone asked for by link or command. */
export const revocationResultPresenter: NoticePresenter<Extract<NotifyMessage, { kind: 'revocation-result' }>> = {
  head: () => ({ type: 'revocation.result', category: 'security', email: 'revocation-result', loads: { delegateViews: true } }),
  present(message, input) {
    const gone = message.outcome === 'revoked' || message.outcome === 'already-revoked';
    return {
      severity: gone ? 'info' : 'critical',
      title: gone ? 'Delegate revoked' : `Revocation ${message.outcome}`,
      summary: gone
        ? `${who(message.delegate)} can no longer trade this account.`
        : `${who(message.delegate)} may still trade this account: ${message.message ?? 'no detail'}.`,
      fields: [accountField(input), { label: 'Delegate', value: message.delegate.address }, { label: 'Outcome', value: message.outcome }],
      links: gone ? [] : revokeLinks(input, message.delegate.address),
      // The new-delegate incident closes once the delegate is gone.
      incident: gone ? { key: delegateIncidentKey(input.account.address, message.delegate.address), action: 'resolve' } : null,
      details: {
        delegate: message.delegate,
        outcome: message.outcome,
        message: message.message,
        nonce: message.nonce,
        transactionSignature: message.transactionSignature,
      },
    };
  },
  email(message, input, mail) {
    return {
      kind: 'revocation-result',
      view: {
        ...emailBase(input, mail),
        outcome: message.outcome,
        delegate: {
          name: message.delegate.name,
          address: message.delegate.address,
          kind: mail.isWebClient(message.delegate.address) ? 'web-session' : 'api-key',
        },
        attemptedAtMs: message.at,
        chainMessage: message.message === null ? null : message.message.slice(0, 1_000),
        nonce: message.nonce,
        txSignature: message.transactionSignature !== null && TX_SIGNATURE.test(message.transactionSignature) ? message.transactionSignature : null,
      },
    };
  },
};
