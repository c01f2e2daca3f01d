import { SubjectError } from '../shared/subjectError';

/** A queue call failed as a whole (a send, not just some of its entries; a visibility change). */
export class QueueError extends SubjectError {
  override readonly name = 'QueueError';

  /** The queue, or what was being done with it (`new QueueError(queue, details)`). */
  get queue(): string {
    return this.subject;
  }
}
