import type { Log } from '../../functions/shared/observability';

/** One line a `recordingLog` took: its level, message and fields. */
export interface LoggedLine {
  readonly level: keyof Log;
  readonly message: string;
  readonly fields: Record<string, unknown> | undefined;
}

/** A `Log` that keeps every line it is given, in order, for a test to read. */
export function recordingLog(): { log: Log; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at = (level: keyof Log) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  return { log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}
