import type { DigestSender } from '../services/report/send/digestInput';
import type { ReportDeps } from '../services/report/send/reportDeps';
import { sendDigest } from '../services/report/send/sendDigest';

/**
 * The `DigestSender` every composition root (the report Lambdas, `sentinel`, `npm start`) wires
 * in: `sendDigest` over the report service's other ports.
 */
export function digestSenderFor(deps: Omit<ReportDeps, 'digest'>): DigestSender {
  return (input) => sendDigest(deps, input);
}
