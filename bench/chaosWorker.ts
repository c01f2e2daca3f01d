/**
 * One day of the chaos run in its own process (forked by `bench/chaos.ts`): reads what to run from
 * the parent's one message, runs it (`runDay`) and sends the result back.
 */
import * as z from 'zod';
import { runDay } from './chaosDay';

const queueNames = z.object({ queueName: z.string().min(1), deadLetterQueueName: z.string().min(1) });
const requestSchema = z.object({
  args: z.object({ accounts: z.number().int().min(1), seed: z.number().int().min(0) }),
  chaos: z.boolean(),
  services: z.object({ dynamo: z.url(), ses: z.url() }),
  watched: z.array(z.tuple([z.string().min(1), queueNames])),
});

process.once('message', (message: unknown) => {
  const request = requestSchema.parse(message);
  runDay(request.args, request.chaos, request.services, new Map(request.watched))
    .then((result) => process.send?.(result, () => process.exit(0)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
});
