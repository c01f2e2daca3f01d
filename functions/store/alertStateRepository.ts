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

/**
 * Partition-key prefix of what people set from a link (a recipient's snoozes, a chat's controls):
 * `controls#<account>`, apart from the account's alert states, kill-switch state, caps and breaker
 * under `<account>`, so IAM can let the public preferences page write these items and nothing else
 * of the table (`dynamodb:LeadingKeys` `controls#*`). Items written under the account itself before
 * (`recipient-snoozes`, `channel-controls`) are read while no item of the same rule exists here,
 * and the first write here starts from them: a move on write, nothing lost.
 */
export const CONTROLS_KEY_PREFIX = 'controls#';

/** The partition key of an account's link-set controls. */
export function controlsKey(address: string): string {
  return `${CONTROLS_KEY_PREFIX}${address}`;
}

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

  /** Every rule's state kept under the account (its alert states, the account-wide snooze), by rule name; not the link-set controls. */
  async listForAccount(address: string): Promise<AlertState[]> {
    return this.queryItems(
      'alerts.listForAccount',
      { KeyConditionExpression: 'address = :address', ExpressionAttributeValues: { ':address': address }, ConsistentRead: true },
      (item) => toState(parseItem(itemSchema, item, 'alerts.listForAccount')),
    );
  }

  /**
   * Every rule's state for an account and its link-set controls (recipient snoozes, channel
   * controls), each control from `controls#<account>` or, while none is stored there, from before
   * the move: what `status` and `alerts list` show. Two queries.
   */
  async listWithControls(address: string): Promise<AlertState[]> {
    const [own, controls] = await Promise.all([
      this.listForAccount(address),
      this.queryItems(
        'alerts.listControls',
        { KeyConditionExpression: 'address = :address', ExpressionAttributeValues: { ':address': controlsKey(address) }, ConsistentRead: true },
        (item) => toState(parseItem(itemSchema, item, 'alerts.listControls')),
      ),
    ]);
    const moved = new Set(controls.map((c) => c.rule));
    return [...own.filter((r) => !moved.has(r.rule)), ...controls];
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

  /** The account's per-recipient snoozes as stored (ended ones may still be listed). One `GetItem` (two while the item is not moved yet). */
  async recipientSnoozes(address: string): Promise<RecipientSnoozes> {
    return recipientsOf((await this.control(address, RECIPIENT_SNOOZES_RULE))?.state);
  }

  /**
   * Snoozes the account's drawdown alerts for `email` only, until `until` or the later end
   * already stored for it. Returns the end in force. `GetItem` and a conditional `PutItem`.
   */
  async snoozeRecipient(address: string, email: string, until: number, now: number): Promise<number> {
    let next: RecipientSnoozes = {};
    await this.rewriteControl('alerts.snoozeRecipient', address, RECIPIENT_SNOOZES_RULE, (state) => {
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
      await this.rewriteControl('alerts.liftRecipientSnoozes', address, RECIPIENT_SNOOZES_RULE, (state) => ({
        recipients: withoutRecipientSnooze(recipientsOf(state), email, now),
      }));
    }
    return lifted;
  }

  /** The account's per-channel controls (ended snoozes may still be listed). One `GetItem` (two while the item is not moved yet). */
  async channelControls(address: string): Promise<ChannelControls> {
    return controlsOf((await this.control(address, CHANNEL_CONTROLS_RULE))?.state);
  }

  /** Snoozes the account's drawdown alerts in `channel` only, until `until` or the later end already stored. Returns the end in force. */
  async snoozeChannel(address: string, channel: string, until: number, now: number): Promise<number> {
    let next: ChannelControls = NO_CHANNEL_CONTROLS;
    await this.rewriteControl('alerts.snoozeChannel', address, CHANNEL_CONTROLS_RULE, (state) => {
      next = withChannelSnooze(controlsOf(state), channel, until, now);
      return { snoozes: next.snoozes, mutes: next.mutes };
    });
    return next.snoozes[channel] ?? until;
  }

  /** Replaces the categories muted in `channel` for the account (never security). */
  async setChannelMutes(address: string, channel: string, muted: readonly OneClickCategory[]): Promise<void> {
    await this.rewriteControl('alerts.setChannelMutes', address, CHANNEL_CONTROLS_RULE, (state) => {
      const next = withChannelMutes(controlsOf(state), channel, muted);
      return { snoozes: next.snoozes, mutes: next.mutes };
    });
  }

  /** A link-set control of the account: the item under `controls#<account>`, else the one from before the move. */
  private async control(address: string, rule: string): Promise<AlertState | null> {
    return (await this.get(controlsKey(address), rule)) ?? (await this.get(address, rule));
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

  /**
   * `rewrite` of a link-set control under `controls#<account>`: the first write there starts from
   * the item kept under the account before the move (which is then no longer read).
   */
  private async rewriteControl(operation: string, address: string, rule: string, change: (state: unknown) => Record<string, unknown>): Promise<void> {
    const key = controlsKey(address);
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.get(key, rule);
      const state = current === null ? (await this.get(address, rule))?.state : current.state;
      const outcome = await this.compareAndSet(key, rule, current?.version ?? null, change(state));
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
