import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../../functions/domain/channel';
import { heldUntil, planChannelJob, queuedWait, type LoadedChannelJob, type PlannedJob } from '../../../functions/domain/channelJobPlan';

const NOW = Date.UTC(2030, 0, 7, 9);
const ACCOUNT = '0xc400000000000000000000000000000000000001';

function channel(extra: Partial<ChannelRecord> = {}): ChannelRecord {
  return {
    name: 'desk-pager',
    type: 'pagerduty',
    secret: 'env:DESK_PAGER',
    url: null,
    chatId: null,
    categories: ['drawdown', 'security'],
    accounts: [ACCOUNT] as ChannelRecord['accounts'],
    state: { kind: 'ok' },
    lastDelivery: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...extra,
  };
}

const loaded = (extra: Partial<LoadedChannelJob> = {}): LoadedChannelJob => ({
  channel: channel(),
  spacingMs: 1_000,
  keepsIncidents: true,
  incidentOpen: null,
  sendsNothing: false,
  ...extra,
});

const noticeJob = (extra: Partial<PlannedJob> = {}, notice: Partial<NonNullable<PlannedJob['notice']>> = {}): PlannedJob => ({
  notice: { id: 'drawdown:0xc4:1', category: 'drawdown', incident: null, account: { address: ACCOUNT.toUpperCase() }, ...notice },
  ...extra,
});

describe('planChannelJob', () => {
  it('sends a routed notice under its delivery id, taking the next slot', () => {
    expect(planChannelJob(noticeJob(), loaded(), NOW, 900)).toMatchObject({
      kind: 'send',
      deliveryId: 'drawdown:0xc4:1#channel:desk-pager',
      followUp: false,
      withChart: false,
      urgent: false,
      reservedSlot: false,
      spacingMs: 1_000,
      destination: 'pagerduty|env:DESK_PAGER||',
    });
  });

  it('takes a reserved slot once it has come, and sends a security notice as urgent', () => {
    expect(planChannelJob(noticeJob({ slotAt: NOW }), loaded(), NOW, 900)).toMatchObject({ kind: 'send', reservedSlot: true });
    expect(planChannelJob(noticeJob({ slotAt: NOW + 1 }), loaded(), NOW, 900)).toMatchObject({ kind: 'send', reservedSlot: false });
    expect(planChannelJob(noticeJob({}, { category: 'security' }), loaded(), NOW, 900)).toMatchObject({ kind: 'send', urgent: true });
  });

  it("sends a photo's follow-up under its own id, without the chart", () => {
    expect(planChannelJob(noticeJob({ chartPng: 'iVBORw0K' }), loaded(), NOW, 900)).toMatchObject({ withChart: true, followUp: false });
    expect(planChannelJob(noticeJob({ chartPng: 'iVBORw0K', part: 'follow-up' }), loaded(), NOW, 900)).toMatchObject({
      deliveryId: 'drawdown:0xc4:1#channel:desk-pager#text',
      withChart: false,
      followUp: true,
    });
  });

  it('drops a job whose channel was removed, is broken or no longer takes the notice', () => {
    expect(planChannelJob(noticeJob(), loaded({ channel: null }), NOW, 900)).toEqual({ kind: 'skipped', reason: 'the channel was removed' });
    const broken = channel({ state: { kind: 'broken', reason: 'HTTP 404', since: NOW } });
    expect(planChannelJob(noticeJob(), loaded({ channel: broken }), NOW, 900)).toEqual({ kind: 'skipped', reason: 'the channel is broken' });
    expect(planChannelJob(noticeJob({}, { category: 'expiry' }), loaded(), NOW, 900)).toEqual({
      kind: 'skipped',
      reason: 'the channel is no longer routed this notice',
    });
  });

  it("tells a job meeting its channel broken with the break's notice not queued yet to queue it, with the stored break", () => {
    const owing = channel({ state: { kind: 'broken', reason: 'HTTP 410', since: NOW - 5, notice: { account: ACCOUNT, queuedAt: null } } });
    const tellBroken = { channel: { name: 'desk-pager', type: 'pagerduty' }, account: ACCOUNT, reason: 'HTTP 410', since: NOW - 5 };
    expect(planChannelJob(noticeJob(), loaded({ channel: owing }), NOW, 900)).toEqual({ kind: 'skipped', reason: 'the channel is broken', tellBroken });
    expect(planChannelJob({}, loaded({ channel: owing }), NOW, 900)).toEqual({ kind: 'summary', tellBroken });
    // Held for hours, a job to such a channel ends (and tells) now.
    expect(planChannelJob(noticeJob({ notBefore: NOW + 3_600_000 }), loaded({ channel: owing }), NOW, 900)).toMatchObject({ kind: 'skipped', tellBroken });
  });

  it("asks to queue a broken channel's notice exactly when its state owes one not yet queued (a state without one counts as told)", () => {
    const state = fc.oneof(
      fc.constant({ kind: 'ok' } as const),
      fc.record({
        kind: fc.constant('broken' as const),
        reason: fc.string({ minLength: 1 }),
        since: fc.nat(),
        notice: fc.option(fc.record({ account: fc.constant(ACCOUNT), queuedAt: fc.option(fc.nat(), { nil: null }) }), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(state, fc.boolean(), fc.option(fc.integer({ min: -10_000, max: 10_000 }), { nil: undefined }), (s, backlog, wait) => {
        const stored = s.kind === 'broken' && s.notice === undefined ? { kind: s.kind, reason: s.reason, since: s.since } : s;
        const job = backlog
          ? { notBefore: wait === undefined ? undefined : NOW + wait }
          : noticeJob({ notBefore: wait === undefined ? undefined : NOW + wait });
        const plan = planChannelJob(job, loaded({ channel: channel({ state: stored }) }), NOW, 900);
        const owed = s.kind === 'broken' && s.notice?.queuedAt === null;
        const told = 'tellBroken' in plan ? plan.tellBroken : undefined;
        expect(told !== undefined).toBe(owed);
        if (told && s.kind === 'broken')
          expect(told).toEqual({ channel: { name: 'desk-pager', type: 'pagerduty' }, account: ACCOUNT, reason: s.reason, since: s.since });
      }),
    );
  });

  it('holds a job before its notBefore while its channel takes it, at most the queue delay, rounded up', () => {
    expect(planChannelJob(noticeJob({ notBefore: NOW + 1_500 }), loaded(), NOW, 900)).toEqual({ kind: 'hold', delaySeconds: 2 });
    expect(planChannelJob(noticeJob({ notBefore: NOW + 3_600_000 }), loaded(), NOW, 900)).toEqual({ kind: 'hold', delaySeconds: 900 });
    // A channel removed meanwhile ends the job at once instead of holding it for hours.
    expect(planChannelJob(noticeJob({ notBefore: NOW + 3_600_000 }), loaded({ channel: null }), NOW, 900)).toMatchObject({ kind: 'skipped' });
    expect(planChannelJob(noticeJob({ notBefore: NOW }), loaded(), NOW, 900)).toMatchObject({ kind: 'send' });
  });

  it("summarises a backlog job (a removed channel's backlog is emptied there), held like any job", () => {
    expect(planChannelJob({}, loaded(), NOW, 900)).toEqual({ kind: 'summary' });
    expect(planChannelJob({}, loaded({ channel: null }), NOW, 900)).toEqual({ kind: 'summary' });
    expect(planChannelJob({ notBefore: NOW + 10_000 }, loaded(), NOW, 900)).toEqual({ kind: 'hold', delaySeconds: 10 });
  });

  it('sends a resolve only to a pager that was sent the trigger; other types ignore incidents', () => {
    const resolve = { incident: { key: 'k1', action: 'resolve' as const } };
    expect(planChannelJob(noticeJob({}, resolve), loaded({ incidentOpen: false }), NOW, 900)).toEqual({
      kind: 'skipped',
      reason: 'the pager was sent no trigger for this incident',
      resolveWithoutTrigger: true,
    });
    expect(planChannelJob(noticeJob({}, resolve), loaded({ incidentOpen: true }), NOW, 900)).toMatchObject({ kind: 'send', incident: resolve.incident });
    expect(planChannelJob(noticeJob({}, resolve), loaded({ keepsIncidents: false }), NOW, 900)).toMatchObject({ kind: 'send', incident: null });
  });

  it('ends a notice its channel has nothing to send for, unclaimed; a channel removed or broken still says so', () => {
    expect(planChannelJob(noticeJob({}, { category: 'security' }), loaded({ sendsNothing: true }), NOW, 900)).toEqual({ kind: 'nothing-to-send' });
    const broken = channel({ state: { kind: 'broken', reason: 'key refused', since: NOW } });
    expect(planChannelJob(noticeJob(), loaded({ channel: broken, sendsNothing: true }), NOW, 900)).toMatchObject({
      kind: 'skipped',
      reason: 'the channel is broken',
    });
  });
});

/** A time of its own for the queue-wait cases. */
const QUEUED_AT = 1_800_000_000_000;

describe('waits longer than the queue’s delay', () => {
  it('a wait within the queue’s delay is a plain delay, rounded up', () => {
    expect(queuedWait(4_200, QUEUED_AT, 900)).toEqual({ delaySeconds: 5, notBefore: undefined });
    expect(queuedWait(900_000, QUEUED_AT, 900)).toEqual({ delaySeconds: 900, notBefore: undefined });
    expect(queuedWait(0, QUEUED_AT, 900)).toEqual({ delaySeconds: 0, notBefore: undefined });
  });

  it('a longer wait goes for the longest delay and holds the job until its time', () => {
    expect(queuedWait(2 * 3_600_000, QUEUED_AT, 900)).toEqual({ delaySeconds: 900, notBefore: QUEUED_AT + 2 * 3_600_000 });
  });

  it('a job received before its time is held for the rest, at most the longest delay, never less than what is left', () => {
    const notBefore = QUEUED_AT + 2 * 3_600_000;
    expect(heldUntil(notBefore, QUEUED_AT + 900_000, 900)).toEqual({ kind: 'hold', delaySeconds: 900 });
    expect(heldUntil(notBefore, notBefore - 1_500, 900)).toEqual({ kind: 'hold', delaySeconds: 2 });
    expect(heldUntil(notBefore, notBefore - 1, 900)).toEqual({ kind: 'hold', delaySeconds: 1 });
  });

  it('a job is due at its time, after it, or without one', () => {
    expect(heldUntil(QUEUED_AT, QUEUED_AT, 900)).toEqual({ kind: 'due' });
    expect(heldUntil(QUEUED_AT, QUEUED_AT + 1, 900)).toEqual({ kind: 'due' });
    expect(heldUntil(undefined, QUEUED_AT, 900)).toEqual({ kind: 'due' });
  });

  it('held hop by hop, a job comes due exactly at its time', () => {
    const notBefore = QUEUED_AT + 10 * 3_600_000 + 123;
    let t = QUEUED_AT;
    let hops = 0;
    for (let held = heldUntil(notBefore, t, 900); held.kind === 'hold'; held = heldUntil(notBefore, t, 900)) {
      t += held.delaySeconds * 1_000;
      hops++;
    }
    expect(t).toBeGreaterThanOrEqual(notBefore);
    expect(t - notBefore).toBeLessThan(1_000);
    expect(hops).toBe(41);
  });
});
