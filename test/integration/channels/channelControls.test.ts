import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../../functions/domain/channel';
import type { NoticeJob } from '../../../functions/messages/channelJob';
import { notifyMessageSchema, type NotifyMessage } from '../../../functions/messages/notifyMessage';
import { fanOutJobs } from '../../support/channels/fanOutJobs';
import { formOf, getPage, revocationWorld, submitForm, titleOf, type TrackedSimAccount } from '../../support/revocation/revocationWorld';
import { cliRunner } from '../../support/cli/cliHarness';
import { channelRecordOf } from '../../support/channels/channelRecordFixture';
import { drawdownFiredAt } from '../../support/channels/noticeFixtures';

const world = revocationWorld();
let account: TrackedSimAccount;

beforeAll(async () => {
  account = await world.trackAccount({ label: 'chat-controls', delegates: [] });
  const now = Date.now();
  for (const name of ['desk', 'ops']) {
    const record = channelRecordOf({ name, type: 'telegram', secret: 'env:TG', chatId: `-100${name.length}`, accounts: [account.address] }, now);
    await world.repos.channels.create(record);
  }
}, 120_000);

/** Fans `message` out to the channels; returns the jobs queued. */
async function fanOutMessage(message: NotifyMessage): Promise<NoticeJob[]> {
  return fanOutJobs(world, message);
}

/** Fans a drawdown alert out to the channels; returns the jobs queued. */
async function fanOut(eventId: string): Promise<NoticeJob[]> {
  const now = Date.now();
  const message = notifyMessageSchema.parse(drawdownFiredAt(account.address, now, eventId));
  return fanOutMessage(message);
}

const linkOf = (job: NoticeJob | undefined, action: 'snooze' | 'preferences'): string => {
  const url = job?.notice.links.find((l) => l.action === action)?.url;
  if (!url) throw new Error(`no ${action} link`);
  return url;
};

describe("a chat's Snooze and Preferences buttons", () => {
  it('snooze: GET changes nothing; the POST snoozes that channel only, once; a tampered link is refused', async () => {
    const jobs = await fanOut(`dd-snooze-${Date.now()}`);
    expect(jobs.map((j) => j.channel).sort()).toEqual(['desk', 'ops']);
    const desk = jobs.find((j) => j.channel === 'desk');
    expect(desk?.notice.links.map((l) => l.label)).toEqual(['Snooze 24 hours', 'Preferences']);
    const url = linkOf(desk, 'snooze');

    const page = await getPage(url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('desk');
    expect(page.html).toContain('Email recipients and other channels still get them');
    expect(await world.repos.alerts.channelControls(account.address)).toEqual({ snoozes: {}, mutes: {} });

    const tampered = new URL(url);
    tampered.searchParams.set('token', `${tampered.searchParams.get('token') ?? ''}x`);
    expect((await getPage(tampered.toString())).status).toBe(400);

    const form = formOf(page);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('Alerts snoozed in this channel');
    const replay = await submitForm(form.action, form.fields);
    expect(replay.status, 'the link works once').toBe(409);

    const after = await fanOut(`dd-snooze-after-${Date.now()}`);
    expect(
      after.map((j) => j.channel),
      'the other channel still gets it',
    ).toEqual(['ops']);
    expect((await world.repos.accounts.get(account.address))?.emails.length, 'email recipients are untouched').toBeGreaterThan(0);
    expect(await world.repos.alerts.recipientSnoozes(account.address)).toEqual({});
    // The alert machine's levels are not touched by a channel snooze.
    expect(await world.repos.alerts.listForAccount(account.address)).toEqual([]);
    // The chat's controls live apart from the alert states (`controls#<account>`), where the preferences page may write.
    expect((await world.repos.alerts.listWithControls(account.address)).map((s) => s.rule)).toEqual(['channel-controls']);
  });

  it('preferences: GET changes nothing; the POST mutes a category in that channel only; security cannot be muted; a cross-site POST is refused', async () => {
    const [job] = (await fanOut(`dd-prefs-${Date.now()}`)).filter((j) => j.channel === 'ops');
    const page = await getPage(linkOf(job, 'preferences'));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Security notices cannot be turned off from a chat link');
    const before = await world.repos.alerts.channelControls(account.address);
    const form = formOf(page);

    const crossSite = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams({ ...form.fields, receive: 'expiry' }).toString(),
    });
    expect(crossSite.status).toBe(403);
    expect(await world.repos.alerts.channelControls(account.address)).toEqual(before);

    // Only "expiry" ticked: drawdown and reports muted in ops; "security" cannot be sent as muted.
    const saved = await submitForm(form.action, { ...form.fields, receive: 'expiry' });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain('Saved.');
    expect((await world.repos.alerts.channelControls(account.address)).mutes).toEqual({ ops: ['reports', 'drawdown'] });
    expect(await fanOut(`dd-prefs-after-${Date.now()}`), 'desk is snoozed, ops muted drawdown').toEqual([]);
  });

  it("the channel's link epoch: revoke-links and remove void its messages' links, which read as expired on GET and POST; later links work", async () => {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: world.tables.prefix });
    const channelNamed = (name: string): ChannelRecord =>
      channelRecordOf({ name, type: 'telegram', secret: 'env:TG', chatId: '-1009', accounts: [account.address] }, Date.now());
    await world.repos.channels.create(channelNamed('late'));
    const [job] = await fanOut(`dd-epoch-${Date.now()}`);
    expect(job?.channel, 'desk is snoozed and ops muted drawdown').toBe('late');
    const preferences = linkOf(job, 'preferences');
    const snooze = linkOf(job, 'snooze');
    const form = formOf(await getPage(preferences));
    const before = await world.repos.alerts.channelControls(account.address);

    expect(await cli('channels', 'revoke-links', 'late')).toMatchObject({ code: 0, stderr: '' });
    for (const url of [preferences, snooze]) {
      const page = await getPage(url);
      expect(page.status, url).toBe(410);
      expect(titleOf(page)).toBe('This link has expired');
      expect(page.html).toContain('The links of the channel late were withdrawn');
    }
    const posted = await submitForm(form.action, { ...form.fields, receive: 'expiry' });
    expect(posted.status, 'a form opened before the revocation is void too').toBe(410);
    expect(await world.repos.alerts.channelControls(account.address)).toEqual(before);

    const [fresh] = await fanOut(`dd-epoch-fresh-${Date.now()}`);
    const freshPreferences = linkOf(fresh, 'preferences');
    expect((await getPage(freshPreferences)).status, 'links issued after the epoch work').toBe(200);
    expect((await getPage(linkOf(fresh, 'snooze'))).status).toBe(200);

    expect((await cli('channels', 'remove', 'late')).code).toBe(0);
    const removed = await getPage(freshPreferences);
    expect(removed.status).toBe(410);
    expect(removed.html).toContain('The channel late this link was posted to has been removed or replaced since');
    await world.repos.channels.create(channelNamed('late'));
    expect((await getPage(freshPreferences)).status, 'a new channel of the same name does not revive the old links').toBe(410);
    expect(await world.repos.alerts.channelControls(account.address)).toEqual(before);

    expect((await cli('channels', 'revoke-links', 'nope')).code).toBe(1);
  });
});

describe("a chat's Revoke and Revoke-all buttons are the channel's own", () => {
  let keys: TrackedSimAccount;

  /** Fans a new-delegate notice about `keys`' first delegate out to its channel; returns the jobs. */
  async function fanOutNewDelegate(eventId: string): Promise<NoticeJob[]> {
    const now = Date.now();
    const delegate = keys.delegates[0]!;
    const message = notifyMessageSchema.parse({
      kind: 'new-delegate',
      eventId,
      account: keys.address,
      at: now,
      delegate: { address: delegate.address, expiryMs: null, name: delegate.name, isWebClient: false },
      firstSeenAt: now,
    });
    return fanOutMessage(message);
  }

  const urlOf = (job: NoticeJob | undefined, action: 'revoke' | 'revoke-all'): string => {
    const url = job?.notice.links.find((l) => l.action === action)?.url;
    if (!url) throw new Error(`no ${action} link`);
    return url;
  };

  async function listed(): Promise<string[]> {
    return (await world.control.account(keys.address)).delegates.map((d) => d.address);
  }

  beforeAll(async () => {
    keys = await world.trackAccount({ label: 'chat-keys', delegates: ['bot-a', 'bot-b'] });
    await world.repos.channels.create(channelRecordOf({ name: 'keys-room', type: 'slack', secret: 'env:SLACK', accounts: [keys.address] }, Date.now()));
  });

  it('revoke-links withdraws them on GET and POST (a form opened before included), nothing is revoked; links posted after work', async () => {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: world.tables.prefix });
    const [job] = await fanOutNewDelegate(`nd-epoch-${Date.now()}`);
    expect(job?.channel).toBe('keys-room');
    const revoke = urlOf(job, 'revoke');
    const revokeAll = urlOf(job, 'revoke-all');
    const revokeForm = formOf(await getPage(revoke));
    const revokeAllForm = formOf(await getPage(revokeAll));

    expect(await cli('channels', 'revoke-links', 'keys-room')).toMatchObject({ code: 0, stderr: '' });
    for (const url of [revoke, revokeAll]) {
      const page = await getPage(url);
      expect(page.status, url).toBe(410);
      expect(titleOf(page)).toBe('This link was withdrawn');
      expect(page.html).toContain('The links of the channel keys-room were withdrawn after this message was posted');
    }
    for (const form of [revokeForm, revokeAllForm]) {
      const posted = await submitForm(form.action, form.fields);
      expect(posted.status, form.action).toBe(410);
    }
    await world.revokeAll.drain();
    expect(await listed()).toEqual(keys.delegates.map((d) => d.address));

    const [fresh] = await fanOutNewDelegate(`nd-epoch-fresh-${Date.now()}`);
    expect(titleOf(await getPage(urlOf(fresh, 'revoke-all')))).toBe('Revoke all 2 API keys?');
    const done = await submitForm(...(Object.values(formOf(await getPage(urlOf(fresh, 'revoke')))) as [string, Record<string, string>]));
    expect(titleOf(done)).toBe('API key revoked');
    expect(await listed()).toEqual([keys.delegates[1]!.address]);
  });

  it('remove withdraws them too, and a new channel of the same name does not revive them; an email link is not bound to any channel', async () => {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: world.tables.prefix });
    const [job] = await fanOutNewDelegate(`nd-remove-${Date.now()}`);
    const revokeAll = urlOf(job, 'revoke-all');
    expect((await getPage(revokeAll)).status).toBe(200);
    expect((await cli('channels', 'remove', 'keys-room')).code).toBe(0);
    const removed = await getPage(revokeAll);
    expect(removed.status).toBe(410);
    expect(removed.html).toContain('The channel keys-room this link was posted to has been removed or replaced since');
    await world.repos.channels.create(channelRecordOf({ name: 'keys-room', type: 'slack', secret: 'env:SLACK', accounts: [keys.address] }, Date.now()));
    expect((await getPage(revokeAll)).status).toBe(410);

    // An email's revoke-all link names no channel: the channel's epoch does not touch it.
    expect(titleOf(await getPage(world.revokeAllLink(keys.address)))).toMatch(/^Revoke all \d API keys?\?$/);
  });
});
