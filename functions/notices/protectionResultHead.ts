import type { NoticeType } from '../domain/notice';
import type { EmailKind } from '../mail/render/views';
import type { NoticeHead } from './noticePresenter';

/**
 * The head of an automatic protection's result (the kill switch, a decision's result): a security
 * notice with its "Revoke all N API keys" link (the delegate count loaded), and the operators told
 * too when the stage's breaker stopped it (many accounts firing at once points to a data fault).
 */
export function protectionResultHead(type: NoticeType, email: EmailKind, breakerOpen: boolean): NoticeHead {
  return { type, category: 'security', email, loads: { delegateCount: true }, ...(breakerOpen ? { addressing: { kind: 'operators-too' } } : {}) };
}
