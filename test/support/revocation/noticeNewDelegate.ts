import type { RevocationWorld } from './revocationWorld';

/**
 * What collection does on a delegate nobody expected: the new-delegate event for `delegate` of
 * `account` (as the chain lists it now), sent through the world's notify queue and delivered.
 */
export async function noticeNewDelegate(world: Pick<RevocationWorld, 'chain' | 'notify'>, account: string, delegate: string): Promise<void> {
  const listed = (await world.chain.getDelegateTraders(account)).find((d) => d.address === delegate);
  if (!listed) throw new Error(`the chain does not list ${delegate} for ${account}`);
  const at = Date.now();
  await world.notify.send([
    {
      id: 'new-delegate',
      body: { kind: 'new-delegate', eventId: `new-delegate#${account}#${delegate}`, account, at, delegate: listed, firstSeenAt: at },
    },
  ]);
  await world.notify.drain();
}
