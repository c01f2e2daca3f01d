import * as z from 'zod';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import { StoreError } from './errors';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';
import {
  laterEnd,
  recipientKey,
  recipientSnoozesStateSchema,
  withoutRecipientSnooze,
  withRecipientSnooze,
  type RecipientSnoozes,
} from '../domain/recipientSnoozes';
import { channelControlsStateSchema, NO_CHANNEL_CONTROLS, withChannelMutes, withChannelSnooze, type ChannelControls } from '../domain/channelControls';
import type { OneClickCategory } from '../domain/mailCategory';

/**
 * The rule name under which an account-wide snooze is stored (state `{ until: epoch ms }`): an
 * operator's act (`sentinel alerts snooze`), applied by the account's alert machine.
 */
export const SNOOZE_RULE = 'snooze';
/** The rule name of an account's per-recipient snoozes (state `{ recipients: { email: until } }`), applied where alerts fan out. */
export const RECIPIENT_SNOOZES_RULE = 'recipient-snoozes';

/** The rule name of an account's per-channel controls (snoozes and muted categories set from a chat's buttons), applied where notices fan out to channels. */
export const CHANNEL_CONTROLS_RULE = 'channel-controls';

/** Where one rule of one account stands, with the version its next write must name. */
export interface AlertState {
  readonly rule: string;
  readonly state: Record<string, unknown>;
  readonly version: number;
}

const itemSchema = z.object({
  address: z.string(),
  rule: z.string().min(1),
  state: z.record(z.string(), z.unknown()),
  version: z.number().int().min(1),
});
const snoozeSchema = z.object({ until: z.number() });

/**
 * Alert state per account and rule (table `alerts`), written only with optimistic concurrency,
 * so two evaluations of the same account never both act on the same position.
 */
export class AlertStateRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'alerts', options);
  }

  /** One rule's state, or null if it was never written. */
  async get(address: string, rule: string): Promise<AlertState | null> {
    const out = await this.call('alerts.get', () => this.client.send(new GetCommand({ TableName: this.table, Key: { address, rule }, ConsistentRead: true })));
    return out.Item ? toState(parseItem(itemSchema, out.Item, 'alerts.get')) : null;
  }

  /** Every rule's state for an account (the snooze included), by rule name. */
  async listForAccount(address: string): Promise<AlertState[]> {
    return this.queryItems(
      'alerts.listForAccount',
      { KeyConditionExpression: 'address = :address', ExpressionAttributeValues: { ':address': address }, ConsistentRead: true },
      (item) => toState(parseItem(itemSchema, item, 'alerts.listForAccount')),
    );
  }

  /**
   * Writes `newState` if the stored version is still `expectedVersion` (`null`: if there is
   * none yet). On success the version becomes `expectedVersion + 1` (1 for a first write).
   */
  async compareAndSet(
    address: string,
    rule: string,
    expectedVersion: number | null,
    newState: Record<string, unknown>,
  ): Promise<{ kind: 'written'; version: number } | { kind: 'conflict' }> {
    const version = (expectedVersion ?? 0) + 1;
    const item = parseItem(itemSchema, { address, rule, state: newState, version }, 'alerts.compareAndSet');
    return this.conditionalPut(
      'alerts.compareAndSet',
      {
        Item: item,
        ...(expectedVersion === null
          ? { ConditionExpression: 'attribute_not_exists(address)' }
          : {
              ConditionExpression: '#version = :expected',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':expected': expectedVersion },
            }),
      },
      { kind: 'written', version },
      () => ({ kind: 'conflict' }),
    );
  }

  /** Until when (epoch ms) the account is snoozed, or null. */
  async snoozedUntil(address: string): Promise<number | null> {
    const stored = await this.get(address, SNOOZE_RULE);
    if (!stored) return null;
    const parsed = snoozeSchema.safeParse(stored.state);
    return parsed.success ? parsed.data.until : null;
  }

  /**
   * Silences the account's drawdown alerts for every recipient until `until` (epoch ms), or
   * later when a longer snooze is already stored (the later end wins). Returns the end in force.
   */
  async snooze(address: string, until: number): Promise<number> {
    let result = until;
    await this.rewrite('alerts.snooze', address, SNOOZE_RULE, (state) => {
      const current = snoozeSchema.safeParse(state);
      result = laterEnd(current.success ? current.data.until : null, until);
      return { until: result };
    });
    return result;
  }

  /** Ends the account-wide snooze at `now` (kept as "the last snooze ended"); false when none was running. */
  async liftSnooze(address: string, now: number): Promise<boolean> {
    const running = ((await this.snoozedUntil(address)) ?? 0) > now;
    if (running) await this.rewrite('alerts.liftSnooze', address, SNOOZE_RULE, () => ({ until: now }));
    return running;
  }

  /** The account's per-recipient snoozes as stored (ended ones may still be listed). One `GetItem`. */
  async recipientSnoozes(address: string): Promise<RecipientSnoozes> {
    const stored = await this.get(address, RECIPIENT_SNOOZES_RULE);
    const parsed = recipientSnoozesStateSchema.safeParse(stored?.state);
    return parsed.success ? parsed.data.recipients : {};
  }

  /**
   * Snoozes the account's drawdown alerts for `email` only, until `until` or the later end
   * already stored for it. Returns the end in force. `GetItem` and a conditional `PutItem`.
   */
  async snoozeRecipient(address: string, email: string, until: number, now: number): Promise<number> {
    let next: RecipientSnoozes = {};
    await this.rewrite('alerts.snoozeRecipient', address, RECIPIENT_SNOOZES_RULE, (state) => {
      next = withRecipientSnooze(recipientsOf(state), email, until, now);
      return { recipients: next };
    });
    return next[recipientKey(email)] ?? until;
  }

  /** Lifts `email`'s snooze (`null`: every recipient's); returns the recipients whose running snooze was lifted. */
  async liftRecipientSnoozes(address: string, email: string | null, now: number): Promise<string[]> {
    const before = await this.recipientSnoozes(address);
    const lifted = Object.entries(before)
      .filter(([key, until]) => until > now && (email === null || key === recipientKey(email)))
      .map(([key]) => key);
    if (lifted.length > 0) {
      await this.rewrite('alerts.liftRecipientSnoozes', address, RECIPIENT_SNOOZES_RULE, (state) => ({
        recipients: withoutRecipientSnooze(recipientsOf(state), email, now),
      }));
    }
    return lifted;
  }

  /** The account's per-channel controls (ended snoozes may still be listed). One `GetItem`. */
  async channelControls(address: string): Promise<ChannelControls> {
    return controlsOf((await this.get(address, CHANNEL_CONTROLS_RULE))?.state);
  }

  /** Snoozes the account's drawdown alerts in `channel` only, until `until` or the later end already stored. Returns the end in force. */
  async snoozeChannel(address: string, channel: string, until: number, now: number): Promise<number> {
    let next: ChannelControls = NO_CHANNEL_CONTROLS;
    await this.rewrite('alerts.snoozeChannel', address, CHANNEL_CONTROLS_RULE, (state) => {
      next = withChannelSnooze(controlsOf(state), channel, until, now);
      return { snoozes: next.snoozes, mutes: next.mutes };
    });
    return next.snoozes[channel] ?? until;
  }

  /** Replaces the categories muted in `channel` for the account (never security). */
  async setChannelMutes(address: string, channel: string, muted: readonly OneClickCategory[]): Promise<void> {
    await this.rewrite('alerts.setChannelMutes', address, CHANNEL_CONTROLS_RULE, (state) => {
      const next = withChannelMutes(controlsOf(state), channel, muted);
      return { snoozes: next.snoozes, mutes: next.mutes };
    });
  }

  /** Reads a rule and writes `change(state)` under optimistic concurrency, retrying a few conflicts. */
  private async rewrite(operation: string, address: string, rule: string, change: (state: unknown) => Record<string, unknown>): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.get(address, rule);
      const outcome = await this.compareAndSet(address, rule, current?.version ?? null, change(current?.state));
      if (outcome.kind === 'written') return;
    }
    throw new StoreError(operation, `${rule} of ${address} kept conflicting with concurrent writes`);
  }
}

function controlsOf(state: unknown): ChannelControls {
  const parsed = channelControlsStateSchema.safeParse(state);
  return parsed.success ? parsed.data : NO_CHANNEL_CONTROLS;
}

function recipientsOf(state: unknown): RecipientSnoozes {
  const parsed = recipientSnoozesStateSchema.safeParse(state);
  return parsed.success ? parsed.data.recipients : {};
}

function toState(item: z.infer<typeof itemSchema>): AlertState {
  return { rule: item.rule, state: item.state, version: item.version };
}
