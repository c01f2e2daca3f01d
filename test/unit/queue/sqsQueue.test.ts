import { describe, expect, it } from 'vitest';
import { SendMessageBatchCommand, type SendMessageBatchCommandOutput, type SQSClient } from '@aws-sdk/client-sqs';
import { QueueError } from '../../../functions/queue/errors';
import { SqsQueue } from '../../../functions/queue/sqsQueue';

type Reply = (command: SendMessageBatchCommand) => Partial<SendMessageBatchCommandOutput>;

/** A stand-in SQS client: records each SendMessageBatch and answers with `reply`. */
function fakeSqs(reply: Reply = (c) => ({ Successful: (c.input.Entries ?? []).map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}`, MD5OfMessageBody: '' })) })) {
  const calls: SendMessageBatchCommand[] = [];
  const client = {
    send: async (command: SendMessageBatchCommand) => {
      calls.push(command);
      return reply(command);
    },
  } as unknown as SQSClient;
  return { client, calls };
}

const noWait = { sleep: async () => {} };
const entries = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `acct#${i}`, body: { account: `0x${i}` } }));

describe('SqsQueue', () => {
  it('sends in batches of at most 10 with JSON bodies, and reports every entry sent', async () => {
    const { client, calls } = fakeSqs();
    const queue = new SqsQueue<{ account: string }>(client, 'https://sqs/collect', noWait);
    const result = await queue.send([...entries(22), { id: 'late', body: { account: 'x' }, delaySeconds: 30 }]);
    expect(calls.map((c) => c.input.Entries?.length)).toEqual([10, 10, 3]);
    expect(calls[0]?.input.QueueUrl).toBe('https://sqs/collect');
    expect(calls[0]?.input.Entries?.[0]?.MessageBody).toBe('{"account":"0x0"}');
    expect(calls[2]?.input.Entries?.[2]?.DelaySeconds).toBe(30);
    expect(result.sent).toEqual([...entries(22).map((e) => e.id), 'late']);
    expect(result.failed).toEqual([]);
  });

  it('splits batches that would exceed 256 KiB, and refuses a single message that is too large', async () => {
    const { client, calls } = fakeSqs();
    const queue = new SqsQueue<string>(client, 'q', noWait);
    const big = 'x'.repeat(100_000);
    const result = await queue.send([
      { id: 'a', body: big },
      { id: 'b', body: big },
      { id: 'c', body: big },
      { id: 'huge', body: 'y'.repeat(300_000) },
    ]);
    expect(calls.map((c) => c.input.Entries?.length)).toEqual([2, 1]);
    expect(result.sent).toEqual(['a', 'b', 'c']);
    expect(result.failed).toMatchObject([{ id: 'huge', code: 'MessageTooLong', senderFault: true }]);
  });

  it('retries entries that failed on the service side, and reports sender faults without retrying', async () => {
    let call = 0;
    const { client, calls } = fakeSqs((c) => {
      call++;
      const ids = (c.input.Entries ?? []).map((e) => e.Id as string);
      if (call === 1) {
        return {
          Successful: ids.slice(2).map((Id) => ({ Id, MessageId: Id, MD5OfMessageBody: '' })),
          Failed: [
            { Id: ids[0], Code: 'InternalError', SenderFault: false, Message: 'try again' },
            { Id: ids[1], Code: 'InvalidMessageContents', SenderFault: true, Message: 'bad chars' },
          ],
        };
      }
      return { Successful: ids.map((Id) => ({ Id, MessageId: Id, MD5OfMessageBody: '' })) };
    });
    const result = await new SqsQueue(client, 'q', noWait).send(entries(4));
    expect(calls).toHaveLength(2);
    expect(calls[1]?.input.Entries?.map((e) => e.MessageBody)).toEqual(['{"account":"0x0"}']);
    expect(result.sent.sort()).toEqual(['acct#0', 'acct#2', 'acct#3']);
    expect(result.failed).toEqual([{ id: 'acct#1', code: 'InvalidMessageContents', message: 'bad chars', senderFault: true }]);
  });

  it('reports entries that keep failing after the bounded attempts', async () => {
    const { client, calls } = fakeSqs((c) => ({
      Failed: (c.input.Entries ?? []).map((e) => ({ Id: e.Id, Code: 'ServiceUnavailable', SenderFault: false })),
    }));
    const waits: number[] = [];
    const result = await new SqsQueue(client, 'q', { maxAttempts: 3, sleep: async (ms) => void waits.push(ms), random: () => 1 }).send(entries(2));
    expect(calls).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(result.sent).toEqual([]);
    expect(result.failed.map((f) => [f.id, f.code])).toEqual([
      ['acct#0', 'ServiceUnavailable'],
      ['acct#1', 'ServiceUnavailable'],
    ]);
  });

  it('throws QueueError, keeping the cause, when the whole call fails', async () => {
    const cause = Object.assign(new Error('no such queue'), { name: 'QueueDoesNotExist' });
    const { client } = fakeSqs(() => {
      throw cause;
    });
    const error = await new SqsQueue(client, 'https://sqs/missing', noWait).send(entries(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueError);
    expect((error as QueueError).cause).toBe(cause);
    expect((error as QueueError).message).toMatch(/QueueDoesNotExist/);
  });

  it('rejects duplicate ids and out-of-range delays before sending anything', async () => {
    const { client, calls } = fakeSqs();
    const queue = new SqsQueue<number>(client, 'q', noWait);
    await expect(
      queue.send([
        { id: 'a', body: 1 },
        { id: 'a', body: 2 },
      ]),
    ).rejects.toThrow(/twice/);
    await expect(queue.send([{ id: 'a', body: 1, delaySeconds: -1 }])).rejects.toThrow(/delaySeconds/);
    expect(calls).toHaveLength(0);
    expect(SendMessageBatchCommand).toBeDefined();
  });
});
