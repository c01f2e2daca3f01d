import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { LocalServiceError } from './localServiceError';

/** Oldest Java major version the project supports for DynamoDB Local (README, "Quick start"). */
export const MIN_JAVA_MAJOR = 17;

/** The `java` to run: `$JAVA_HOME/bin/java` when JAVA_HOME is set, else `java` from PATH. */
export function javaCommand(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env['JAVA_HOME'];
  return home ? join(home, 'bin', 'java') : 'java';
}

/**
 * Major version from `java -version` output: `openjdk version "17.0.15"` → 17,
 * `java version "1.8.0_392"` → 8, `openjdk version "21" 2023-09-19` → 21.
 */
export function parseJavaMajorVersion(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/**
 * Checks that `command` runs and is at least Java {@link MIN_JAVA_MAJOR}; returns its major version.
 * Throws `LocalServiceError` with a message saying what to install otherwise.
 */
export function requireJava(command: string = javaCommand()): number {
  const advice = `DynamoDB Local needs Java ${MIN_JAVA_MAJOR} or newer: install it (e.g. apt-get install openjdk-17-jre-headless) and put java on PATH or set JAVA_HOME`;
  const result = spawnSync(command, ['-version'], { encoding: 'utf8', timeout: 15_000 });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? `"${command}" was not found` : `"${command} -version" failed (${code ?? result.error.message})`;
    throw new LocalServiceError('java', `${what}. ${advice}`, { cause: result.error });
  }
  const output = `${result.stderr}\n${result.stdout}`;
  const major = parseJavaMajorVersion(output);
  if (major === undefined) {
    throw new LocalServiceError('java', `could not read the version from "${command} -version": ${output.trim().split('\n')[0] ?? ''}. ${advice}`);
  }
  if (major < MIN_JAVA_MAJOR) {
    throw new LocalServiceError('java', `"${command}" is Java ${major}. ${advice}`);
  }
  return major;
}
