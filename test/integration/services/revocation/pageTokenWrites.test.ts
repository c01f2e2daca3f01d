import { describe, expect, it } from 'vitest';
import { REVOKE_ALL_REQUEST_ATTRIBUTES, REVOKE_ALL_RESULT_ATTRIBUTES } from '../../../../functions/store/revokeAllRepository';
import { CONSUMED_TOKEN_ATTRIBUTES, SIGNING_TOKEN_ATTRIBUTES } from '../../../../functions/store/tokenRepository';
import { recordingDocumentClient, type RecordedWrite } from '../../../support/store/recordedWrites';
import { formOf, getPage, revocationWorld, submitForm, titleOf, type WorldRole } from '../../../support/revocation/revocationWorld';

const recorded = new Map<WorldRole, RecordedWrite[]>();
const world = revocationWorld({
  clientOf: (role, prefix) => {
    const { client, writes } = recordingDocumentClient(prefix);
    recorded.set(role, writes);
    return client;
  },
});

/** The writes `role` sent to the `tokens` table so far. */
const tokenWrites = (role: WorldRole): RecordedWrite[] => (recorded.get(role) ?? []).filter((w) => w.table === 'tokens');

/**
 * What each function's role may write to `tokens` in AWS (infra/stacks/WebStack.ts): by action, the
 * leading key it may write, and for a put the only attributes it may name (the same list the stack grants).
 */
const GRANTED: Record<Exclude<WorldRole, 'sign-revocation'>, { put?: string; update?: string; updates?: readonly string[]; delete?: string }> = {
  'revoke-page': { put: 'revoke#', delete: 'revoke#' },
  'revoke-all-page': { update: 'revoke-all#', updates: REVOKE_ALL_REQUEST_ATTRIBUTES },
  'revoke-all-worker': { put: 'revoke#', update: 'revoke-all#', updates: REVOKE_ALL_RESULT_ATTRIBUTES, delete: 'revoke#' },
  'preferences-page': { put: 'snooze#', delete: 'snooze#' },
};

describe("what the link pages and the revoke-all worker write to tokens: only what their roles are granted, never the signer's marks", () => {
  it('drives every token write of the pages (consume, used again, given back, revoke all, snooze), then checks each request sent', async () => {
    // revoke-page: a click that revokes, the same link again (already used), and one whose signer is unusable (given back).
    const account = await world.trackAccount({ label: 'page-writes', delegates: ['bot-a', 'bot-b', 'bot-c'] });
    const [first, second] = account.delegates;
    const revoked = formOf(await getPage(world.revokeLink(account.address, first!.address)));
    expect(titleOf(await submitForm(revoked.action, revoked.fields))).toBe('API key revoked');
    expect(titleOf(await submitForm(revoked.action, revoked.fields))).toMatch(/^This link was used/);

    const unusable = await world.trackAccount({ label: 'page-writes-no-key', delegates: ['bot'] });
    const keyOf = Object.entries(world.signerEnv).find(([, value]) => value === unusable.privateKey)?.[0];
    delete world.signerEnv[keyOf ?? ''];
    const givenBack = formOf(await getPage(world.revokeLink(unusable.address, unusable.delegates[0]!.address)));
    await submitForm(givenBack.action, givenBack.fields);

    // revoke-all-page and the worker: the two keys left, each its own unit.
    const all = formOf(await getPage(world.revokeAllLink(account.address)));
    expect(all.fields['keys']?.split(',').sort()).toEqual([second!.address, account.delegates[2]!.address].sort());
    await submitForm(all.action, all.fields);
    await world.revokeAll.drain();
    expect((await world.chainState(account.address)).delegates).toEqual([]);

    // preferences-page: a snooze link consumed.
    const snooze = formOf(
      await getPage(world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 24, email: account.emails[0]! }, Date.now())),
    );
    expect(titleOf(await submitForm(snooze.action, snooze.fields))).toBe('Alerts snoozed for you');

    // Each path above did write, so the checks below have something to check.
    const actions = (role: WorldRole) => [...new Set(tokenWrites(role).map((w) => `${w.action} ${w.leadingKey?.split('#')[0]}#`))].sort();
    expect(actions('revoke-page')).toEqual(['DeleteItem revoke#', 'PutItem revoke#']);
    expect(actions('revoke-all-page')).toEqual(['UpdateItem revoke-all#']);
    expect(actions('revoke-all-worker')).toEqual(['PutItem revoke#', 'UpdateItem revoke-all#']);
    expect(actions('preferences-page')).toEqual(['PutItem snooze#']);

    for (const [role, granted] of Object.entries(GRANTED) as [keyof typeof GRANTED, (typeof GRANTED)[keyof typeof GRANTED]][]) {
      for (const write of tokenWrites(role)) {
        const what = `${role} ${write.action} ${write.leadingKey} ${write.attributes.join(',')}`;
        const prefix =
          write.action === 'PutItem'
            ? granted.put
            : write.action === 'UpdateItem'
              ? granted.update
              : write.action === 'DeleteItem'
                ? granted.delete
                : undefined;
        expect(prefix, what).toBeDefined();
        expect(write.leadingKey?.startsWith(prefix ?? '?'), what).toBe(true);
        // The signer's marks are named by no request of these roles, in an item, an update or a condition.
        for (const attribute of SIGNING_TOKEN_ATTRIBUTES) expect(write.attributes, what).not.toContain(attribute);
        // An update of a revoke-all batch names its role's part only: the page's queued attempts, the worker's results.
        if (write.action === 'UpdateItem') {
          expect(granted.updates, what).toBeDefined();
          expect(
            write.attributes.filter((a) => !(granted.updates ?? []).includes(a)),
            what,
          ).toEqual([]);
          expect(write.returnValues ?? 'NONE', what).toBe('NONE');
        }
        // A put names nothing its grant's dynamodb:Attributes leaves out (the key included), and asks for no old item.
        if (write.action === 'PutItem') {
          expect(
            write.attributes.filter((a) => !(CONSUMED_TOKEN_ATTRIBUTES as readonly string[]).includes(a)),
            what,
          ).toEqual([]);
          expect(write.returnValues ?? 'NONE', what).toBe('NONE');
        }
      }
    }

    // The recorder sees the signer's marks where they are written: by sign-revocation's updates alone.
    const signer = tokenWrites('sign-revocation');
    expect(signer.every((w) => w.action === 'UpdateItem' && w.leadingKey?.startsWith('revoke#'))).toBe(true);
    const named = new Set(signer.flatMap((w) => w.attributes));
    for (const attribute of SIGNING_TOKEN_ATTRIBUTES) expect(named, attribute).toContain(attribute);
  });
});
