import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../../local/sim/simulator';
import { savedSimStateSchema } from '../../../../local/sim/savedSimState';

const T0 = Date.UTC(2026, 2, 14, 12);
const MINUTE = 60_000;

describe('a saved simulator', () => {
  it('goes on where it stopped: the same accounts, histories, scripted events, delegates and nonces, its clock never back', () => {
    const first = new Simulator({ seed: 3, clock: { startMs: T0, speed: 0 } });
    const { address } = first.createAccount({ label: 'kept', capital: 10_000 });
    const { delegate: bot } = first.addDelegate(address, { name: 'bot' });
    first.addDelegate(address, { name: 'web', isWebClient: true });
    first.removeDelegate(address, bot.address);
    first.setNonce(address, 7);
    first.drawdown(address, 20, 10 * MINUTE);
    first.clock.advance(5 * MINUTE);
    const query = { account: address, from: T0 - 2 * 86_400_000, to: T0 + 5 * MINUTE, interval: '1m' as const };
    const served = first.portfolio(query);

    const saved = savedSimStateSchema.parse(JSON.parse(JSON.stringify(first.save())));
    const second = new Simulator({ seed: 1, clock: { startMs: T0, speed: 0 }, saved });
    expect(second.seed).toBe(3);
    expect(second.clock.now()).toBe(T0 + 5 * MINUTE);
    expect(second.portfolio(query)).toEqual(served);
    expect(second.ledger.delegates(address).map((d) => d.name)).toEqual(['web']);
    expect(second.ledger.nonces(address).nonce).toBe(7);
    expect(second.state().accounts).toEqual([address]);
    // The rest of the scripted fall comes as it would have.
    first.clock.advance(10 * MINUTE);
    second.clock.advance(10 * MINUTE);
    const later = { ...query, to: T0 + 15 * MINUTE };
    expect(second.portfolio(later)).toEqual(first.portfolio(later));
    expect(() => second.createAccount({ label: 'kept' })).toThrow(/already exists/);
  });

  it('starts its clock at real time when that is later than the saved one', () => {
    const saved = new Simulator({ clock: { startMs: T0, speed: 0 } }).save();
    expect(new Simulator({ clock: { startMs: T0 + 86_400_000, speed: 0 }, saved }).clock.now()).toBe(T0 + 86_400_000);
  });
});
