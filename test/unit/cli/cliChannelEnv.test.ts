import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliChannelEnv } from '../../../cli/cliRuntime';
import { servicesFileOf } from '../../support/local/servicesFile';

/** A services file of a live `npm start` (this process's pid) whose recorded values include one that is not a demo channel's. */
async function stateWithRunningStart(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sentinel-channel-env-'));
  const services = servicesFileOf(process.pid, {
    demoChannelEnv: { SENTINEL_DEMO_SLACK_URL: 'http://127.0.0.1:8472/slack/demo', MY_SLACK_URL: 'http://127.0.0.1:8472/slack/mine' },
  });
  await writeFile(join(dir, 'services.json'), services, { mode: 0o600 });
  return dir;
}

describe('where the CLI reads channel secrets', () => {
  it("takes a demo channel's value from a running npm start, never another variable, and the environment first", async () => {
    const dir = await stateWithRunningStart();
    const env = await cliChannelEnv({ OTHER: 'x' }, dir);
    expect(env['SENTINEL_DEMO_SLACK_URL']).toBe('http://127.0.0.1:8472/slack/demo');
    expect(env['MY_SLACK_URL']).toBeUndefined();
    expect(env['OTHER']).toBe('x');
    expect((await cliChannelEnv({ SENTINEL_DEMO_SLACK_URL: 'http://own' }, dir))['SENTINEL_DEMO_SLACK_URL']).toBe('http://own');
  });

  it('without a running npm start, is the environment alone', async () => {
    const env = await cliChannelEnv({ OTHER: 'x' }, await mkdtemp(join(tmpdir(), 'sentinel-channel-env-')));
    expect(env).toEqual({ OTHER: 'x' });
  });
});
