import { describe, expect, inject, it } from 'vitest';
import { createCliRuntime, type CliContext } from '../../../../cli/cliRuntime';
import { runCli } from '../../../../cli/main';
import { loadSettings } from '../../../../functions/config/settings';
import { ActionLinks } from '../../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';

const tables = testTables();
const SECRET = 'link-command-test-secret-0123456789abcdefgh';
const BASE = 'https://links.example.com';
const NOW = Date.UTC(2025, 2, 14, 12);

function context(): CliContext & { stdout: string[]; stderr: string[] } {
  const settings = loadSettings({
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SENTINEL_TABLE_PREFIX: tables.prefix,
    PUBLIC_BASE_URL: BASE,
    SENTINEL_LINK_SECRET: SECRET,
  });
  const runtime = createCliRuntime(settings, () => NOW);
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    runtime: async () => runtime,
    io: { out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), interactive: false },
  };
}

const ACCOUNT = testAddress(1, 0x11c);
const BARE = testAddress(2, 0x11c);
const DELEGATE = testAddress(3, 0x11c);
const GONE = testAddress(4, 0x11c);
const STRANGER = testAddress(5, 0x11c);

const delegateView = (address: string, delegate: string, removedAt: number | null = null) => ({
  address,
  delegate,
  name: 'bot',
  expiryMs: null,
  isWebClient: false,
  firstSeenAt: NOW - 1_000,
  lastSeenAt: NOW - 1_000,
  warningsSent: [],
  expiredNoticeSent: false,
  removedAt,
  generation: 1,
});

describe('sentinel link revoke', () => {
  it('prints a revocation link for a tracked account that reads back as this account and delegate', async () => {
    const ctx = context();
    const { repos } = await ctx.runtime();
    await repos.accounts.create(accountRecord({ address: ACCOUNT, signer: 'env:OWNER_KEY' }));
    await repos.accounts.create(accountRecord({ address: BARE, signer: null }));
    await repos.delegates.putMany([delegateView(ACCOUNT, DELEGATE), delegateView(BARE, DELEGATE), delegateView(ACCOUNT, GONE, NOW - 500)]);
    expect(await runCli(['link', 'revoke', ACCOUNT.toLowerCase(), DELEGATE.toLowerCase()], ctx)).toBe(0);
    expect(ctx.stderr).toEqual([]);
    const url = ctx.stdout.join('').trim();
    expect(url.startsWith(`${BASE}/revoke?token=`)).toBe(true);
    const read = new ActionLinks(new LinkTokenCodec(SECRET), BASE).read('revoke', new URL(url).searchParams.get('token') ?? '', NOW);
    expect(read).toMatchObject({ kind: 'valid', claims: { account: ACCOUNT, delegate: DELEGATE, expiresAt: NOW + 72 * 3_600_000 } });
  });

  it('prints one JSON document with --json', async () => {
    const ctx = context();
    expect(await runCli(['link', 'revoke', ACCOUNT, DELEGATE, '--json'], ctx)).toBe(0);
    const doc = JSON.parse(ctx.stdout.join('')) as Record<string, string>;
    expect(doc).toMatchObject({ account: ACCOUNT, delegate: DELEGATE, expiresAt: new Date(NOW + 72 * 3_600_000).toISOString() });
    expect(doc['link']).toMatch(/^https:\/\/links\.example\.com\/revoke\?token=v2\./);
  });

  it('warns on stderr when the account has no signer, and still prints the link', async () => {
    const ctx = context();
    expect(await runCli(['link', 'revoke', BARE, DELEGATE], ctx)).toBe(0);
    expect(ctx.stderr.join('')).toMatch(/warning: .* has no signer/);
    expect(ctx.stdout.join('')).toMatch(/\/revoke\?token=/);
  });

  it('refuses an address that is not a current delegate of the account (no chain configured: the stored view decides)', async () => {
    for (const delegate of [STRANGER, GONE]) {
      const ctx = context();
      expect(await runCli(['link', 'revoke', ACCOUNT, delegate], ctx)).toBe(1);
      expect(ctx.stderr.join('')).toMatch(new RegExp(`^sentinel: ${delegate} is not a delegate of ${ACCOUNT}`));
      expect(ctx.stdout).toEqual([]);
    }
  });

  it('exits 2 on a bad address and 1 for an untracked account', async () => {
    const bad = context();
    expect(await runCli(['link', 'revoke', '0x123', DELEGATE], bad)).toBe(2);
    expect(bad.stderr.join('')).toMatch(/account "0x123" is not a 20-byte hex address/);
    expect(bad.stdout).toEqual([]);
    const untracked = context();
    expect(await runCli(['link', 'revoke', testAddress(9, 0x11c), DELEGATE], untracked)).toBe(1);
    expect(untracked.stderr.join('')).toMatch(/is not tracked/);
    expect(untracked.stdout).toEqual([]);
  });
});
