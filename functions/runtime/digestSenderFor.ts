import type { DigestSender } from '../services/report/digestInput';
import type { DueReportsDeps } from '../services/report/dueReports';

/**
 * The `DigestSender` every composition root (the report Lambdas, `sentinel`, `npm start`) wires
 * in, built from the report service's other ports.
 *
 * PLACEHOLDER until the digest email is merged: every digest fails for good with "digest email
 * not available" (logged, never retried). The integrator replaces the body with the real sender,
 * e.g. `return (input) => sendDigest(deps, input);`.
 */
export function digestSenderFor(_deps: Omit<DueReportsDeps, 'digest'>): DigestSender {
  return async () => ({ kind: 'failed', reason: 'digest email not available', recipients: 1 });
}
