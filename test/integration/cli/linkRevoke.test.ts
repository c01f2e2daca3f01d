import { describe, expect, it } from 'vitest';
import { cliWorld } from '../../support/cli/cliWorld';

const STRANGER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('sentinel link revoke, with the chain configured', () => {
  const { sim, cli } = cliWorld({ sim: { seed: 7 } });

  it('prints a link for a delegate the chain lists (not yet collected), and refuses one it does not', async () => {
    const owner = await sim.control.createAccount({});
    const { delegate } = await sim.control.addDelegate(owner.address, { name: 'bot' });
    expect((await cli('accounts', 'add', owner.address, '--email', 'owner@example.com')).code).toBe(0);

    const ok = await cli('link', 'revoke', owner.address, delegate.address);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/\/revoke\?token=/);

    const refused = await cli('link', 'revoke', owner.address, STRANGER);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(new RegExp(`^sentinel: ${STRANGER} is not a delegate of ${owner.address}`));
  });
});
