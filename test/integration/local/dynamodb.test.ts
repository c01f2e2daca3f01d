import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CreateTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { isProcessAlive } from '../../../local/childProcess';
import { QUICK_START_JVM_OPTIONS, startDynamoDbLocal } from '../../../local/dynamodb';
import { javaCommand, parseJavaMajorVersion } from '../../../local/java';
import { LocalServiceError } from '../../../local/localServiceError';
import { createDynamoDbClient } from '../../../functions/store/documentClient';

const scratch = mkdtempSync(join(tmpdir(), 'sentinel-dynamo-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function tableNames(endpoint: string): Promise<string[]> {
  const client = createDynamoDbClient({ endpoint });
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  } finally {
    client.destroy();
  }
}

describe('startDynamoDbLocal', () => {
  it('keeps tables on disk across restarts (the second with the JVM options of npm start), and stop() leaves no java process behind', async () => {
    const dataDir = join(scratch, 'data');
    const first = await startDynamoDbLocal({ dataDir });
    try {
      const client = createDynamoDbClient({ endpoint: first.endpoint });
      await client.send(
        new CreateTableCommand({
          TableName: 'kept',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'k', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'k', KeyType: 'HASH' }],
        }),
      );
      client.destroy();
    } finally {
      await first.stop();
    }
    expect(isProcessAlive(first.pid)).toBe(false);
    await expect(fetch(first.endpoint, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();

    const second = await startDynamoDbLocal({ dataDir, jvmOptions: QUICK_START_JVM_OPTIONS });
    try {
      expect(readFileSync(`/proc/${second.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...QUICK_START_JVM_OPTIONS]));
      expect(second.endpoint).not.toBe(first.endpoint);
      expect(await tableNames(second.endpoint)).toContain('kept');
    } finally {
      await second.stop();
    }
    expect(isProcessAlive(second.pid)).toBe(false);
  });

  it('does not outlive a parent that is killed outright', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'startDynamoAndWait.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`fixture exited early (${code})`)));
      });
      const { pid, endpoint } = JSON.parse(line) as { pid: number; endpoint: string };
      expect(await tableNames(endpoint)).toEqual([]);
      expect(isProcessAlive(pid)).toBe(true);
      child.kill('SIGKILL');
      await vi.waitFor(() => expect(isProcessAlive(pid)).toBe(false), { timeout: 20_000, interval: 100 });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('fails fast with a clear message when java is missing', async () => {
    const error = await startDynamoDbLocal({ javaCommand: join(scratch, 'no-such-java') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalServiceError);
    expect((error as Error).message).toMatch(/was not found.*Java 17 or newer/s);
  });

  it('fails fast with a clear message when java is too old', async () => {
    const oldJava = join(scratch, 'java8');
    writeFileSync(oldJava, '#!/bin/sh\necho \'java version "1.8.0_392"\' >&2\n');
    chmodSync(oldJava, 0o755);
    const error = await startDynamoDbLocal({ javaCommand: oldJava }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalServiceError);
    expect((error as Error).message).toMatch(/is Java 8\. DynamoDB Local needs Java 17 or newer/);
  });

  it('refuses inMemory together with dataDir', async () => {
    await expect(startDynamoDbLocal({ inMemory: true, dataDir: scratch })).rejects.toThrow(/mutually exclusive/);
  });
});

describe('java version detection', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "21" 2023-09-19', 21],
    ['java version "1.8.0_392"', 8],
    ['openjdk version "11.0.2-ea" 2019-01-15', 11],
    ['Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "22.0.1" 2024-04-16', 22],
    ['something else entirely', undefined],
  ])('reads %j as %s', (output, major) => {
    expect(parseJavaMajorVersion(output)).toBe(major);
  });

  it('uses $JAVA_HOME/bin/java when JAVA_HOME is set', () => {
    expect(javaCommand({ JAVA_HOME: '/opt/jdk-21' })).toBe('/opt/jdk-21/bin/java');
    expect(javaCommand({})).toBe('java');
  });
});
