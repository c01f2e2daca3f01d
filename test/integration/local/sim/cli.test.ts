import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../cli/main';
import { PROJECT_ROOT } from '../../../../infra/bundling/handlerEntry';

const ROOT = PROJECT_ROOT;

describe('sentinel sim', () => {
  it('prints its URLs, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/sentinel.js', 'sim', '--port', '0', '--seed', '5'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines: string[] = [];
      const reader = createInterface({ input: child.stdout });
      for await (const line of reader) {
        lines.push(line);
        if (lines.length === 3) break;
      }
      expect(lines[0]).toMatch(/^node: http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[1]).toMatch(/^indexer: http:\/\/127\.0\.0\.1:\d+\/indexer$/);
      expect(lines[2]).toMatch(/^control: http:\/\/127\.0\.0\.1:\d+\/_control$/);
      const node = lines[0]?.slice('node: '.length) ?? '';
      const control = lines[2]?.slice('control: '.length) ?? '';
      const nonce = await fetch(`${node}/account-nonce?account=0x${'01'.repeat(20)}`);
      expect(await nonce.json()).toEqual({ nonce: 0, deferredNonce: 0 });
      expect(((await (await fetch(`${control}/state`)).json()) as { seed: number }).seed).toBe(5);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses bad option values with exit status 2', async () => {
    expect(await runCli(['sim', '--port', 'eighty'])).toBe(2);
    expect(await runCli(['sim', '--port', '70000'])).toBe(2);
    expect(await runCli(['sim', '--seed', '-1'])).toBe(2);
  });
});
