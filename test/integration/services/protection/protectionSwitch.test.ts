import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { createRepositories } from '../../../../functions/store/repositories';
import { FileProtectionSwitch } from '../../../../functions/store/fileProtectionSwitch';
import { SsmProtectionSwitch } from '../../../../functions/store/ssmProtectionSwitch';
import { STAGE_AUDIT_ADDRESS } from '../../../../functions/services/protection/setProtection';
import { testTables } from '../../../support/testTables';
import { cliRunner } from '../../../support/cli/cliHarness';

describe('the stage-wide protection switch', () => {
  const tables = testTables();

  it('is off on a new stage, `protection on` arms it and `off` disarms it, each change audited with who and from → to', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'protection-')), 'protection');
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix }, Date.now, file);
    expect((await cli('protection', 'status')).stdout).toMatch(/^protection off/);
    const on = await cli('protection', 'on');
    expect(on).toMatchObject({ code: 0 });
    expect(on.stdout).toContain('off → on');
    expect(await new FileProtectionSwitch(file).read()).toBe('on');
    expect((await cli('protection', 'status')).stdout).toMatch(/^protection on/);
    expect((await cli('protection', 'on')).stdout).toContain('already on');
    expect((await cli('protection', 'off')).stdout).toContain('on → off');
    const audit = await createRepositories(tables.client, tables.prefix).audit.listForAccount(STAGE_AUDIT_ADDRESS, 10);
    expect(audit.map((r) => [r.action, r.outcome])).toEqual([
      ['protection-switch', 'off'],
      ['protection-switch', 'on'],
    ]);
    expect(audit[0]?.message).toMatch(/^on → off/);
    expect(audit[0]?.actor).toMatch(/^cli:/);
  });

  it('counts a missing, garbled or unreadable file as off', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'protection-'));
    expect(await new FileProtectionSwitch(join(dir, 'absent')).read()).toBe('off');
    await writeFile(join(dir, 'garbled'), 'yes please\n');
    expect(await new FileProtectionSwitch(join(dir, 'garbled')).read()).toBe('off');
    expect(await new FileProtectionSwitch(dir).read()).toBe('off');
  });

  it('counts an SSM parameter that cannot be read as off', async () => {
    const failing = { send: () => Promise.reject(Object.assign(new Error('denied'), { name: 'AccessDeniedException' })), config: {} } as unknown as SSMClient;
    expect(await new SsmProtectionSwitch(failing, '/sentinel/test/protection').read()).toBe('off');
  });
});
