import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';

const storedMessageSchema = z.object({
  messageId: z.string().min(1),
  body: z.string(),
  sentAt: z.number(),
  visibleAt: z.number(),
  receiveCount: z.number().int().min(0),
  firstReceivedAt: z.number().nullable(),
  groupId: z.string().optional(),
});

/** A message as a queue keeps it (and as the journal writes it). */
export type JournalMessage = z.infer<typeof storedMessageSchema>;

const deadLetterSchema = z.object({
  messageId: z.string().min(1),
  body: z.string(),
  receiveCount: z.number().int(),
  sentAt: z.number(),
  deadLetteredAt: z.number(),
});

/** A dead-lettered message as the journal writes it. */
export type JournalDeadLetter = z.infer<typeof deadLetterSchema>;

const entrySchema = z.discriminatedUnion('op', [
  /** Sent (or, after compaction, as it stood). */
  z.object({ op: z.literal('put'), m: storedMessageSchema }),
  /** Received, or its visibility changed. */
  z.object({ op: z.literal('vis'), id: z.string(), visibleAt: z.number(), receiveCount: z.number().int(), firstReceivedAt: z.number().nullable() }),
  /** Deleted after a successful delivery. */
  z.object({ op: z.literal('del'), id: z.string() }),
  /** Moved to the dead-letter queue. */
  z.object({ op: z.literal('dead'), letter: deadLetterSchema }),
]);

/** One change to a queue, as a journal line. */
export type JournalEntry = z.infer<typeof entrySchema>;

/** What a journal held when it was opened. */
export interface RestoredQueue {
  readonly messages: JournalMessage[];
  readonly deadLetters: JournalDeadLetter[];
  /** Lines that could not be read (a line cut short when the process was killed mid-write). */
  readonly unreadableLines: number;
}

/** Where an in-process queue writes every change, so its messages outlive the process. */
export interface QueueJournal {
  /** The queue's messages and dead letters as the journal left them. */
  restore(): RestoredQueue;
  /** Appends changes (in order; one write). */
  record(entries: readonly JournalEntry[]): void;
  /** Stops writing: later changes stay in memory only (what a stopped process left unfinished stays as it was). */
  close(): void;
}

/** Compacts when the file holds this many lines more than twice the live messages. */
const COMPACT_SLACK = 2_000;

/**
 * A queue's journal in one file of JSON lines, appended synchronously on each change (a killed
 * process loses nothing it had acknowledged; a line cut short by the kill is skipped). Opening it
 * replays the lines and rewrites the file as the queue's state (compaction, through a temporary
 * file and a rename), as does a file grown far past what it holds.
 */
export class FileQueueJournal implements QueueJournal {
  private fd: number | null = null;
  private lines = 0;
  private live = new Map<string, JournalMessage>();
  private dead: JournalDeadLetter[] = [];
  private unreadable = 0;

  constructor(private readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(file)) this.replay(readFileSync(file, 'utf8'));
    this.compact();
  }

  restore(): RestoredQueue {
    return { messages: [...this.live.values()].map((m) => ({ ...m })), deadLetters: [...this.dead], unreadableLines: this.unreadable };
  }

  record(entries: readonly JournalEntry[]): void {
    if (this.fd === null || entries.length === 0) return;
    for (const entry of entries) this.apply(entry);
    writeSync(this.fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    this.lines += entries.length;
    if (this.lines > 2 * (this.live.size + this.dead.length) + COMPACT_SLACK) this.compact();
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private replay(text: string): void {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let parsed;
      try {
        parsed = entrySchema.safeParse(JSON.parse(line));
      } catch {
        parsed = undefined;
      }
      if (parsed?.success) this.apply(parsed.data);
      else this.unreadable++;
    }
  }

  private apply(entry: JournalEntry): void {
    switch (entry.op) {
      case 'put':
        this.live.set(entry.m.messageId, { ...entry.m });
        return;
      case 'vis': {
        const message = this.live.get(entry.id);
        if (message) Object.assign(message, { visibleAt: entry.visibleAt, receiveCount: entry.receiveCount, firstReceivedAt: entry.firstReceivedAt });
        return;
      }
      case 'del':
        this.live.delete(entry.id);
        return;
      case 'dead':
        this.live.delete(entry.letter.messageId);
        this.dead.push(entry.letter);
        return;
    }
  }

  /** Rewrites the file as the current state and reopens it for appending. */
  private compact(): void {
    if (this.fd !== null) closeSync(this.fd);
    const entries: JournalEntry[] = [
      ...[...this.live.values()].map((m) => ({ op: 'put' as const, m })),
      ...this.dead.map((letter) => ({ op: 'dead' as const, letter })),
    ];
    const temporary = `${this.file}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
    this.fd = openSync(this.file, 'a', 0o600);
    this.lines = entries.length;
  }
}
