import type { DelegateProtection, UnknownKeyAction } from './delegateProtection';
import type { NoticeText } from './noticeText';

/**
 * The words of a protected new-delegate notice, shared by the email and every channel; its lines
 * say what was done and why, how to add the key again, what stays, what to do.
 */
export interface UnknownKeyNoticeText extends NoticeText {
  /** Whether the key was revoked, or is being: the notice offers no revoke link then. */
  readonly revoked: boolean;
}

/** What became of the key, in a sentence, and whether it is gone (or going). */
function actionText(action: UnknownKeyAction, kind: string): { title: string; line: string; revoked: boolean } {
  const notRevoked = `Unknown ${kind} NOT revoked`;
  const yourself = 'Revoke it yourself now unless someone on the desk added it.';
  if (action.kind === 'kept-web-session') {
    return {
      title: `Unknown web session on this account`,
      line: `It is marked as a web session, so it was kept (revoke-unknown is api-keys). Whoever signed it chose that mark: unless someone on the desk just logged in on the web, revoke it now.`,
      revoked: false,
    };
  }
  if (action.kind === 'not-set-up') {
    return { title: notRevoked, line: `It was not revoked: automatic protection is not set up on this deployment. ${yourself}`, revoked: false };
  }
  const outcome = action.outcome;
  switch (outcome.kind) {
    case 'queued':
      return {
        title: `Unknown ${kind} revoked automatically`,
        line: 'It was revoked automatically: its removal is queued and signed like a click on a revoke link; a revocation result follows.',
        revoked: true,
      };
    case 'dry-run':
      return { title: `Unknown ${kind} would be revoked (dry run)`, line: `Dry run: it would have been revoked, and nothing was. ${yourself}`, revoked: false };
    case 'protection-off':
      return {
        title: notRevoked,
        line: `It was not revoked: automatic protection is off for this deployment ("sentinel protection on" turns it on). ${yourself}`,
        revoked: false,
      };
    case 'not-armed':
      return { title: notRevoked, line: `It was not revoked: the protection service does not hold this account as armed. ${yourself}`, revoked: false };
    case 'capped':
      return {
        title: notRevoked,
        line: `It was not revoked: the cap (${outcome.cap}) is reached; past it, protection alerts only. ${yourself}`,
        revoked: false,
      };
    case 'breaker-open':
      return {
        title: notRevoked,
        line: `It was not revoked: ${outcome.firedAccounts} accounts fired within the hour, which points to a data fault, so automatic protection holds back and the operator is told. ${yourself}`,
        revoked: false,
      };
    case 'nothing-to-revoke':
      return {
        title: notRevoked,
        line: 'Nothing was revoked: by the time protection checked, the key was gone, kept or already being revoked.',
        revoked: false,
      };
  }
}

/**
 * The title, severity and paragraphs of a new-delegate notice that unknown-key protection judged:
 * an announced key (kept, noticed as expected), or an unknown one (revoked, would be, or was not,
 * and why). Every unknown-key notice says how to add the key again and that resting orders, TWAPs
 * and positions stay; a second unknown key within a day says to move funds.
 */
export function unknownKeyNoticeText(protection: DelegateProtection, ctx: { who: string; account: string; delegate: string }): UnknownKeyNoticeText {
  if (protection.verdict === 'announced') {
    return {
      title: 'Expected delegate added',
      summary: `${ctx.who} appeared as announced (sentinel delegates expect). It is kept, and known from now on.`,
      severity: 'info',
      revoked: false,
      lines: ['If no one on the desk added it, revoke it now: an announcement only says a key was expected.'],
    };
  }
  const kind = protection.webSession ? 'web session' : 'API key';
  const act = actionText(protection.action, kind);
  const lines = [
    act.line,
    `Why: no one announced it ("sentinel delegates expect"), and it was not among the account's keys when unknown-key protection was armed.`,
    `To add it again: run "sentinel delegates expect ${ctx.account} ${ctx.delegate}" first (open for an hour by default), then add the key.`,
    'Revoking a key cancels nothing: resting orders, TWAPs and open positions stay. Cancel or close from the owner account what is not yours.',
  ];
  if (protection.repeatWithinDay) {
    lines.unshift(
      'This is the second unknown key within a day: someone else likely holds the owner key, which can also withdraw funds. Move the funds to an account whose key is safe now; revoking keys is not enough.',
    );
  }
  return {
    title: protection.repeatWithinDay ? `${act.title}: second unknown key within a day, move funds` : act.title,
    summary: `${ctx.who} appeared without being announced.`,
    severity: 'critical',
    revoked: act.revoked,
    lines,
  };
}
