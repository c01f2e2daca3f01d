import { perFile } from '../perFile';
import { startFakeSes, type FakeSes, type FakeSesReply } from './fakeSes';

/** The usual answers: `MessageRejected` to a recipient starting with "reject", `Throttling` to one starting with "throttle", else accepted. */
export const byRecipientPrefix = (recipient: string): FakeSesReply =>
  recipient.startsWith('reject') ? 'MessageRejected' : recipient.startsWith('throttle') ? 'Throttling' : 'ok';

/**
 * The stand-in SES endpoint of one test file (call at the top of a file or `describe`), answering
 * each send as `decide` says, started before the tests and stopped after them.
 */
export function fakeSesPerFile(decide: (recipient: string) => FakeSesReply = byRecipientPrefix): FakeSes {
  return perFile(
    'the fake SES',
    () => startFakeSes(decide),
    (fake) => fake.stop(),
  );
}
