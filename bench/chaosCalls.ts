/**
 * Where a chaos day's DynamoDB calls go (`npm run bench:chaos`): per idle scheduler tick and per
 * curve poll. A tick is idle when it polled no curve and no report was queued or in flight (a
 * delegate watch whose list matches its mark costs no DynamoDB call, so it may run in an idle
 * tick). A poll's calls are those of the ticks that polled without report work, less an idle
 * tick's.
 */
export interface CallTally {
  /** Called before a tick with the client's call count so far. */
  begin(calls: number): void;
  /** Called after a tick: the calls so far, the curve polls it made, and whether report work was queued or in flight. */
  end(calls: number, polls: number, reportWork: boolean): void;
  /** The figures so far. */
  read(): CallFigures;
  /** One line per command and table (with `CHAOS_CALLS` set: `byKind` given), per idle tick and per poll. */
  breakdown(): string;
}

/** DynamoDB calls per idle tick and per curve poll, and how many of each the day had. */
export interface CallFigures {
  readonly idleTicks: number;
  readonly perIdleTick: number;
  readonly polls: number;
  readonly perPoll: number;
}

/** A tally over the calls counted in `byKind` (key: command and table) when given, else totals only. */
export function callTally(byKind?: ReadonlyMap<string, number>): CallTally {
  const idle = { ticks: 0, calls: 0, kinds: new Map<string, number>() };
  const polled = { ticks: 0, calls: 0, polls: 0, kinds: new Map<string, number>() };
  let before = { calls: 0, kinds: new Map<string, number>() };
  const perIdleTick = () => (idle.ticks === 0 ? 0 : idle.calls / idle.ticks);
  return {
    begin(calls) {
      before = { calls, kinds: new Map(byKind) };
    },
    end(calls, polls, reportWork) {
      if (reportWork) return;
      const into = polls === 0 ? idle : polled;
      into.ticks++;
      into.calls += calls - before.calls;
      if (into === polled) polled.polls += polls;
      for (const [key, n] of byKind ?? []) into.kinds.set(key, (into.kinds.get(key) ?? 0) + n - (before.kinds.get(key) ?? 0));
    },
    read() {
      const perPoll = polled.polls === 0 ? 0 : (polled.calls - polled.ticks * perIdleTick()) / polled.polls;
      return { idleTicks: idle.ticks, perIdleTick: perIdleTick(), polls: polled.polls, perPoll };
    },
    breakdown() {
      const lines = (kinds: Map<string, number>, per: (key: string, n: number) => number) =>
        [...kinds]
          .map(([key, n]) => [key, per(key, n)] as const)
          .filter(([, n]) => Math.abs(n) >= 0.005)
          .sort((a, b) => b[1] - a[1])
          .map(([key, n]) => `    ${n.toFixed(2)} ${key}`);
      const idlePer = (key: string) => (idle.ticks === 0 ? 0 : (idle.kinds.get(key) ?? 0) / idle.ticks);
      return [
        `  per idle tick (${idle.ticks} ticks):`,
        ...lines(idle.kinds, (key) => idlePer(key)),
        `  per curve poll (${polled.polls} polls in ${polled.ticks} ticks without report work):`,
        ...lines(new Map([...polled.kinds, ...[...idle.kinds.keys()].map((k) => [k, polled.kinds.get(k) ?? 0] as const)]), (key, n) =>
          polled.polls === 0 ? 0 : (n - idlePer(key) * polled.ticks) / polled.polls,
        ),
      ].join('\n');
    },
  };
}
