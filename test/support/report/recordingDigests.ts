import type { DigestInput, DigestSender } from '../../../functions/services/report/send/digestInput';

/**
 * A `DigestSender` double that records every call and answers like the real one would for a
 * rerun: `sent` the first time a digest id (`digest:<period>:<reportDate>#<email>`) is seen,
 * `duplicate` after (forced extras are always sent).
 */
export function recordingDigests(): { sender: DigestSender; calls: DigestInput[]; sent: DigestInput[] } {
  const calls: DigestInput[] = [];
  const sent: DigestInput[] = [];
  const seen = new Set<string>();
  const sender: DigestSender = async (input) => {
    calls.push(input);
    const id = `digest:${input.period}:${input.reportDate}#${input.recipient.email}`;
    if (!input.forced && seen.has(id)) return { kind: 'duplicate', reportDate: input.reportDate, recipients: 1 };
    seen.add(id);
    sent.push(input);
    return { kind: 'sent', reportDate: input.reportDate, coveredDate: input.reportDate, forced: input.forced, recipients: 1, messages: 1, failed: 0 };
  };
  return { sender, calls, sent };
}
