import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeReport, NO_FOLLOWER_REASON, reportAudience, type ReportReadings } from '../../../functions/domain/composeReport';
import { noRecipientReason } from '../../../functions/domain/mailCategory';
import { localDayBounds } from '../../../functions/domain/localTime';
import { buildReportModel, type ReportModelInput } from '../../../functions/domain/reportModel';
import { planClaimedReport, planExtraReport, reportInstant } from '../../../functions/domain/reportPlan';
import { reportWindows } from '../../../functions/domain/reportWindows';

const NOW = Date.parse('2026-11-23T08:00:00Z');
const ACCOUNT = { address: `0x${'a'.repeat(40)}` as const, reportAt: '08:00', timezone: 'UTC' };
const plan = planClaimedReport(ACCOUNT, '2026-11-23');

type Left = { readonly email: string; readonly reason: string };

function figures(source?: ReportModelInput['source']): ReportModelInput {
  return {
    settings: { address: ACCOUNT.address, label: 'desk', timezone: 'UTC', interval: '1h' },
    day: { localDate: '2026-11-22', ...localDayBounds('2026-11-22', 'UTC') },
    windows: reportWindows('2026-11-22', 'UTC').map((window) => ({
      window,
      summary: null,
      previous: null,
      series: [
        { timestamp: window.fromMs, equity: 100_000, pnl: 0 },
        { timestamp: window.toMs, equity: 100_250, pnl: 250 },
      ],
    })),
    history: [
      { timestamp: NOW - 7_200_000, equity: 100_000, pnl: 0 },
      { timestamp: NOW - 3_600_000, equity: 99_000, pnl: -1_000 },
    ],
    delegates: [],
    removedDelegates: [],
    now: NOW,
    ...(source ? { source } : {}),
  };
}

const readings = (over: Partial<ReportReadings<Left>>): ReportReadings<Left> => ({
  plan,
  span: 'day',
  schedule: { reportAt: ACCOUNT.reportAt, timezone: ACCOUNT.timezone },
  audience: { kind: 'recipients', recipients: ['a@example.com', 'b@example.com'] },
  leftOut: [],
  addressed: ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'],
  sent: [],
  figures: figures(),
  ...over,
});

describe('composeReport: one decision over what a report run read', () => {
  it('is not due when the plan says so, keeping whether the schedule must move', () => {
    expect(composeReport(readings({ plan: { kind: 'not-due', nextAt: NOW + 1_000, reschedule: true }, figures: null }))).toEqual({
      kind: 'not-due',
      nextAt: NOW + 1_000,
      reschedule: true,
    });
  });

  it('sends nothing when no one is left, saying why', () => {
    const composed = composeReport(readings({ audience: { kind: 'none', reason: 'every recipient is suppressed' }, figures: null }));
    expect(composed).toMatchObject({ kind: 'nothing-to-send', reason: 'every recipient is suppressed', plan: { eventId: plan.eventId } });
  });

  it('builds nothing when every recipient already has it, however their addresses are spelled', () => {
    const composed = composeReport(readings({ sent: ['A@example.com', 'b@EXAMPLE.com'], figures: null }));
    expect(composed).toMatchObject({ kind: 'already-sent', recipients: ['a@example.com', 'b@example.com'] });
  });

  it('sends to every recipient when some still lack it (a delivered copy is refused by its record), with the model of what was read', () => {
    const composed = composeReport(readings({ sent: ['a@example.com'] }));
    expect(composed.kind).toBe('send');
    if (composed.kind !== 'send') return;
    expect(composed.recipients).toEqual(['a@example.com', 'b@example.com']);
    expect(composed.model).toEqual(buildReportModel(figures()));
    expect(composed.storedData).toBe(false);
    expect(composed.lastPointAtMs).toBe(NOW - 3_600_000);
  });

  it('labels a report built from stored data', () => {
    const composed = composeReport(readings({ figures: figures({ kind: 'stored', chainFailedAt: NOW, storedAsOf: NOW - 3_600_000, metricsFrom: null }) }));
    expect(composed).toMatchObject({ kind: 'send', storedData: true, model: { source: { kind: 'stored', chainFailedAt: NOW } } });
  });

  it('refuses to decide a report to send without its figures', () => {
    expect(() => composeReport(readings({ figures: null }))).toThrow(RangeError);
  });

  const LEFT: Left[] = [{ email: 'c@example.com', reason: 'suppressed' }];

  it("records those left out under the report id and kind, at the report's own time, when no one is left", () => {
    const composed = composeReport(readings({ audience: { kind: 'none', reason: 'every recipient is suppressed' }, leftOut: LEFT, figures: null }));
    expect(composed).toMatchObject({
      kind: 'nothing-to-send',
      history: { leftOut: LEFT, eventId: plan.eventId, kind: 'daily-report', at: reportInstant('2026-11-23', '08:00', 'UTC') },
    });
  });

  it('records those left out of a report it sends, with the email kind of its span', () => {
    const composed = composeReport(readings({ span: 'week', leftOut: LEFT }));
    expect(composed).toMatchObject({ kind: 'send', mailKind: 'weekly-report', history: { leftOut: LEFT, kind: 'weekly-report' } });
  });

  it("dates a copy's left-out entries at its sending, under the copy's own id", () => {
    const copy = planExtraReport(ACCOUNT, NOW, true);
    const composed = composeReport(readings({ plan: copy, leftOut: LEFT }));
    expect(composed).toMatchObject({ kind: 'send', history: { eventId: copy.eventId, at: NOW } });
    expect(copy.eventId).toContain(':copy:');
  });

  it('records nothing and posts nothing when every recipient already has it (a rerun)', () => {
    const composed = composeReport(readings({ sent: ['a@example.com', 'b@example.com'], leftOut: LEFT, figures: null }));
    expect(composed).toEqual({ kind: 'already-sent', plan, recipients: ['a@example.com', 'b@example.com'] });
  });

  it('sends exactly when someone of the audience lacks the report, and then mails the whole audience', () => {
    const emails = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'];
    fc.assert(
      fc.property(fc.subarray(emails, { minLength: 1 }), fc.subarray(emails), fc.boolean(), (audience, sentLower, shout) => {
        const sent = sentLower.map((email) => (shout ? email.toUpperCase() : email));
        const [first, ...rest] = audience;
        if (first === undefined) return;
        const composed = composeReport(readings({ audience: { kind: 'recipients', recipients: [first, ...rest] }, sent, leftOut: LEFT }));
        const missing = audience.some((email) => !sentLower.includes(email));
        expect(composed.kind).toBe(missing ? 'send' : 'already-sent');
        if (composed.kind === 'send') {
          expect(composed.recipients).toEqual(audience);
          expect(composed.history.leftOut).toEqual(LEFT);
        }
      }),
    );
  });

  it('sends nothing when no address follows the schedule it runs on, recording no one left out', () => {
    const composed = composeReport(readings({ addressed: [], leftOut: LEFT, figures: null }));
    expect(composed).toMatchObject({ kind: 'nothing-to-send', reason: NO_FOLLOWER_REASON, history: { leftOut: [] } });
  });

  it('mails and records only the addressed of the audience read over all the addresses', () => {
    const composed = composeReport(readings({ addressed: ['b@example.com', 'c@example.com'], leftOut: LEFT }));
    expect(composed).toMatchObject({ kind: 'send', recipients: ['b@example.com'], history: { leftOut: LEFT } });
  });
});

/** A suppression or an opt-out, as the stores key an address. */
const key = (email: string): string => email.trim().toLowerCase();

/** The reports audience of `emails` read alone, as the mail audience reads it: each once, suppressed, then opted out, then the rest. */
function audienceAlone(emails: readonly string[], suppressed: ReadonlySet<string>, optedOut: ReadonlySet<string>) {
  const unique = emails.filter((email, i) => emails.findIndex((e) => key(e) === key(email)) === i);
  const allowed = unique.filter((email) => !suppressed.has(key(email)));
  const reachable = allowed.filter((email) => !optedOut.has(key(email)));
  const leftOut = [
    ...unique.filter((email) => suppressed.has(key(email))).map((email) => ({ email, reason: 'suppressed' })),
    ...allowed.filter((email) => optedOut.has(key(email))).map((email) => ({ email, reason: 'opted-out' })),
  ];
  const [first, ...rest] = reachable;
  return first === undefined
    ? { kind: 'none' as const, reason: noRecipientReason('reports'), leftOut }
    : { kind: 'recipients' as const, recipients: [first, ...rest] as [string, ...string[]], leftOut };
}

describe("reportAudience: a report's audience out of the one read with its job", () => {
  const LOCALS = ['ann', 'Bob', 'cy', 'Dee', 'eve'];

  it('is the audience of the addressed read alone, whatever the addresses read with them and however the addressed spell them', () => {
    fc.assert(
      fc.property(
        fc.subarray(LOCALS, { minLength: 1 }),
        fc.subarray(LOCALS),
        fc.subarray(LOCALS),
        fc.array(fc.boolean(), { minLength: LOCALS.length, maxLength: LOCALS.length }),
        fc.func(fc.boolean()),
        (read, suppressedLocals, optedOutLocals, shout, pick) => {
          const emails = read.map((local) => `${local}@example.com`);
          const suppressed = new Set(suppressedLocals.map((local) => key(`${local}@example.com`)));
          const optedOut = new Set(optedOutLocals.map((local) => key(`${local}@example.com`)));
          // The addressed: some of the addresses read, in their order, each spelled as its account may spell it.
          const addressed = emails.filter((email) => pick(email)).map((email, i) => (shout[i] === true ? email.toUpperCase() : email));
          const all = audienceAlone(emails, suppressed, optedOut);
          const expected = addressed.length === 0 ? { kind: 'none', reason: NO_FOLLOWER_REASON, leftOut: [] } : audienceAlone(addressed, suppressed, optedOut);
          expect(reportAudience({ audience: all, leftOut: all.leftOut, addressed })).toEqual(expected);
        },
      ),
    );
  });

  it("spells a recipient job's one address as the account spells it", () => {
    const read = audienceAlone(['dee@example.com'], new Set(), new Set());
    expect(reportAudience({ audience: read, leftOut: read.leftOut, addressed: ['Dee@example.com'] })).toEqual({
      kind: 'recipients',
      recipients: ['Dee@example.com'],
      leftOut: [],
    });
  });
});
