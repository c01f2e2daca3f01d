import { readFileSync } from 'node:fs';

/** CPU time (user + system, ms) used so far by this process and by another one. */
export interface CpuSample {
  readonly selfMs: number;
  /** Null when the other process's time cannot be read (no Linux `/proc`). */
  readonly otherMs: number | null;
}

/** Samples the CPU time of this process and of process `pid` (DynamoDB Local's JVM). */
export function sampleCpu(pid: number): CpuSample {
  const self = process.cpuUsage();
  return { selfMs: (self.user + self.system) / 1000, otherMs: procCpuMs(pid) };
}

/** CPU used between two samples, ms. */
export function cpuSince(before: CpuSample, after: CpuSample): { selfMs: number; otherMs: number | null } {
  return {
    selfMs: after.selfMs - before.selfMs,
    otherMs: before.otherMs === null || after.otherMs === null ? null : after.otherMs - before.otherMs,
  };
}

/** utime + stime of a Linux process from `/proc/<pid>/stat` (clock ticks of 10 ms), including its reaped children. */
function procCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].map((i) => Number(fields[i]));
    return ticks.every(Number.isFinite) ? ticks.reduce((a, b) => a + b, 0) * 10 : null;
  } catch {
    return null;
  }
}
