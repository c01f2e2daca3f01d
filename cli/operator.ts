import { hostname, userInfo } from 'node:os';

/** Who runs the CLI, for the audit trail (`cli:user@host`). */
export function operator(): string {
  try {
    return `cli:${userInfo().username}@${hostname()}`;
  } catch {
    return 'cli';
  }
}
