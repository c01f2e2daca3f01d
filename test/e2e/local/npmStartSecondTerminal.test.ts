import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimControlClient } from '../../../local/sim';
import { deriveKey } from '../../../local/sim/keys';
import { interruptNpmStart, npmStartsOfFile } from '../../support/local/npmStartProcess';
import { npmStartTerminal, type Received } from '../../support/local/npmStartTerminal';

const STEADY = deriveKey(1, 'account:demo-steady').address;

/** The commands of the README's "A CLI session" block, continuation lines joined, comments dropped. */
async function readmeWalkthrough(repo: string): Promise<{ commands: string[]; elsewhere: string }> {
  const readme = await readFile(join(repo, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A CLI session'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const commands = block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.startsWith('$ '))
    .map((line) =>
      line
        .slice(2)
        .replace(/\s+#.*$/, '')
        .trim(),
    );
  const elsewhere = /`(SENTINEL_STATE_DIR=<project folder>\/\.sentinel [^`]+)`/.exec(section)?.[1] ?? '';
  return { commands, elsewhere };
}

describe('npm start and a second terminal', () => {
  const startNpm = npmStartsOfFile();

  it("the CLI reaches the demo's chat channels (a test message, an alert a `collect` raises) and the README walkthrough's commands run (the first through npx, as typed), here and from another folder", async () => {
    const t = await npmStartTerminal();
    // Plain `npm start`, as the README's walkthrough follows it: nothing here waits on the simulated clock, and
    // at real speed the stack's polls do not compete with the commands for the CPU.
    const run = startNpm(t.env, []);
    await run.ready();
    // The file the CLI reads the demo channels' values from is the owner's alone.
    expect((await stat(join(t.stateDir, 'services.json'))).mode & 0o077).toBe(0);
    const control = new SimControlClient((await t.services()).SIM_CONTROL_URL);

    const probe = deriveKey(99, 'account:probe').address;
    // Polled only when the command says so: a curve a day, no delegate watch in between.
    const added = t.cli(
      tmpdir(),
      'accounts',
      'add',
      probe,
      '--email',
      'probe@example.com',
      '--label',
      'probe',
      '--interval',
      '1d',
      '--delegate-watch',
      'none',
      '--add-channel',
      'demo-slack',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(t.cli(tmpdir(), 'collect', '--account', probe).code).toBe(0);
    await control.addDelegate(probe, { name: 'probe-bot' });
    const collected = t.cli(tmpdir(), 'collect', '--account', probe);
    expect(collected.code, collected.stderr).toBe(0);
    expect(`${collected.stdout}${collected.stderr}`).not.toMatch(/ChannelConfigError|failed/);
    const probeMessages = (await t.chat()).filter((r) => r.kind === 'slack' && r.status < 300 && /probe-bot/.test(JSON.stringify(r.body)));
    expect(probeMessages.length, 'the new-key notice the CLI raised, in the demo Slack').toBeGreaterThanOrEqual(1);

    const { commands, elsewhere } = await readmeWalkthrough(t.repo);
    expect(commands.length).toBeGreaterThanOrEqual(8);
    // The walkthrough's test message is the CLI's own to the demo's Slack: it arrives there.
    expect(commands).toContain('npx sentinel channels test demo-slack');
    // The test message as the Slack receiver accepted it: found by its title, not by a count of the receiver's
    // list (that counts the 429s it answered at its rate too, and keeps only its newest 200 records).
    const testMessageIn = (records: readonly Received[]) =>
      records.filter((r) => r.kind === 'slack' && r.status < 300 && JSON.stringify(r.body).includes('Test message from portfolio-sentinel')).length;
    // Every command is `npx sentinel ...`. The first runs as written, through npx; the others run the binary it
    // starts (bin/sentinel.js) directly, with the same arguments: npx first loads npm and the project's tree of
    // installed packages, 2-4 s a command here.
    expect(commands.filter((command) => !command.startsWith('npx sentinel '))).toEqual([]);
    for (const [i, command] of commands.entries()) {
      const testMessage = command === 'npx sentinel channels test demo-slack';
      const before = testMessage ? testMessageIn(await t.chat()) : 0;
      const ran = t.shell(t.repo, i === 0 ? command : command.replace(/^npx sentinel /, `"${process.execPath}" bin/sentinel.js `));
      expect(ran.code, `${command}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
      if (command.includes('link revoke')) expect(ran.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/revoke\?token=/);
      if (testMessage) {
        expect(ran.stderr).toBe('');
        expect(ran.stdout).toMatch(/^channel demo-slack: delivered/);
        expect(testMessageIn(await t.chat()), 'the test message in the demo Slack').toBe(before + 1);
      }
    }
    expect(elsewhere).not.toBe('');
    const away = t.shell(tmpdir(), elsewhere.replaceAll('<project folder>/.sentinel', t.stateDir).replaceAll('<project folder>', t.repo));
    expect(away.code, away.stderr).toBe(0);
    expect(away.stdout).toContain(STEADY);
    expect(await interruptNpmStart(run)).not.toBe('late');
  }, 600_000);
});
