import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import * as z from 'zod';
import { channelsView } from './channelsView';
import { checkDiscord, checkPagerDuty, checkSlack, checkTelegram } from './chatRules';
import { describeMultipart, discordMultipart, readMultipart, telegramMultipart } from './multipartRules';
import { checkTeams, TEAMS_MAX_BODY_BYTES } from './teamsRules';

/** A destination kind the receivers stand in for. */
export type ReceiverKind = 'slack' | 'discord' | 'telegram' | 'pagerduty' | 'webhook' | 'teams';

/** One request as received, and what was answered. */
export interface Received {
  readonly kind: ReceiverKind;
  /** The destination: webhook path, chat id or routing key. */
  readonly destination: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly at: number;
  readonly status: number;
  /** The images it uploaded (a chart), for the channels page. */
  readonly images?: readonly ReceivedImage[];
}

/** An uploaded image as received (multipart `files[n]` or `photo`). */
export interface ReceivedImage {
  readonly filename: string;
  readonly type: string;
  readonly base64: string;
}

const receivedSchema = z.object({
  kind: z.enum(['slack', 'discord', 'telegram', 'pagerduty', 'webhook', 'teams']),
  destination: z.string(),
  method: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  at: z.number(),
  status: z.number().int(),
  images: z.array(z.object({ filename: z.string(), type: z.string(), base64: z.string() })).optional(),
});

/** How many received requests a receivers' state file keeps (the channels page shows the newest 200). */
const KEPT = 500;

/** An answer a test forces on the next request to a destination. */
export interface ScriptedAnswer {
  readonly status: number;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answer only after this long (a slow destination: a send still under way). */
  readonly delayMs?: number;
}

/** Each API's published per-destination rate (what the receivers answer 429 past). */
export const RECEIVER_RATES = {
  slack: { count: 1, windowMs: 1_000 },
  discord: { count: 5, windowMs: 2_000 },
  telegram: { count: 1, windowMs: 1_000 },
  /** Besides 1/s per chat: a group (or channel: a chat id that is not a positive number) takes 20 messages a minute. */
  telegramGroup: { count: 20, windowMs: 60_000 },
  pagerduty: { count: 120, windowMs: 60_000 },
  /** A Teams Workflows webhook: more than 4 requests in a second are throttled. */
  teams: { count: 4, windowMs: 1_000 },
} as const;

/**
 * A PagerDuty incident as the receiver tracks it, per routing key and `dedup_key`: a trigger
 * opens it (a repeat trigger updates it), a resolve closes it.
 */
export interface ReceivedIncident {
  readonly routingKey: string;
  readonly dedupKey: string;
  status: 'triggered' | 'resolved';
  triggers: number;
  resolves: number;
}

/** The running receivers: base URLs, what they received, and scripted answers. */
export interface ChatReceivers {
  readonly baseUrl: string;
  readonly slackUrl: (path: string) => string;
  readonly discordUrl: (id: string, token: string) => string;
  readonly telegramApiUrl: string;
  readonly pagerdutyEventsUrl: string;
  readonly webhookUrl: (path: string) => string;
  /** A Teams Workflows webhook URL (`id` is the destination key; the query stands in for the signature). */
  readonly teamsUrl: (id: string) => string;
  readonly received: Received[];
  /** PagerDuty incidents by `<routing key>#<dedup_key>`. */
  readonly incidents: ReadonlyMap<string, ReceivedIncident>;
  /**
   * Resolves whose `dedup_key` matched no triggered incident of their routing key: PagerDuty
   * accepts them (202) and drops them, so the incident they meant to close stays open.
   */
  readonly unmatchedResolves: string[];
  /** Answers the next requests to `destination` with these, in order (then the rules apply again). */
  script(destination: string, answers: readonly ScriptedAnswer[]): void;
  /** Requests received and not answered yet (held by a scripted `delayMs`). */
  unanswered(): number;
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Local stand-ins for Slack incoming webhooks, Discord webhooks, the Telegram Bot API, the
 * PagerDuty Events API v2, Teams Workflows webhooks (`teamsRules`) and a webhook endpoint, on a free port: each checks the request
 * against its API's published rules (shape, limits: `chatRules`; uploads: `multipartRules`) and rate (429 with the API's own
 * way of saying how long to wait), and records what it received.
 */
export async function startChatReceivers(
  options: {
    now?: () => number;
    host?: string;
    /** Port to listen on; a free one when omitted. */
    port?: number;
    /** A file (JSON lines) keeping what was received across restarts, for the channels page (`npm start`); none by default. */
    stateFile?: string;
  } = {},
): Promise<ChatReceivers> {
  const now = options.now ?? Date.now;
  const received: Received[] = options.stateFile ? restore(options.stateFile) : [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const windows = new Map<string, number[]>();
  const incidents = new Map<string, ReceivedIncident>();
  const unmatchedResolves: string[] = [];
  let unanswered = 0;
  const track = (routingKey: string, event: { event_action?: unknown; dedup_key?: unknown }): string => {
    const dedupKey = typeof event.dedup_key === 'string' ? event.dedup_key : `generated-${incidents.size + 1}`;
    const key = `${routingKey}#${dedupKey}`;
    const open = incidents.get(key);
    if (event.event_action === 'trigger') {
      if (open && open.status === 'triggered') open.triggers++;
      else incidents.set(key, { routingKey, dedupKey, status: 'triggered', triggers: (open?.triggers ?? 0) + 1, resolves: open?.resolves ?? 0 });
    } else if (event.event_action === 'resolve') {
      if (open?.status === 'triggered') {
        open.status = 'resolved';
        open.resolves++;
      } else unmatchedResolves.push(dedupKey);
    }
    return dedupKey;
  };

  /** Whether one more request to `key` fits `rate` (counted unless `record` is false); else ms until it does. */
  const admit = (key: string, rate: { count: number; windowMs: number }, record = true): { ok: true; remaining: number } | { ok: false; waitMs: number } => {
    const t = now();
    const recent = (windows.get(key) ?? []).filter((x) => x > t - rate.windowMs);
    if (recent.length >= rate.count) return { ok: false, waitMs: (recent[0] ?? t) + rate.windowMs - t };
    if (!record) return { ok: true, remaining: rate.count - recent.length };
    recent.push(t);
    windows.set(key, recent);
    return { ok: true, remaining: rate.count - recent.length };
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      // A multipart upload (Telegram sendPhoto, a Discord attachment) is recorded as its fields and each file's name, type and size.
      const form = await readMultipart(raw, req.headers['content-type'] ?? '');
      const body = form ? JSON.stringify(describeMultipart(form)) : raw.toString('utf8');
      const url = new URL(req.url ?? '/', 'http://receiver');
      const path = url.pathname;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
      const images = (form?.files ?? [])
        .filter((f) => /^image\/(png|jpeg|gif|webp)$/.test(f.type))
        .map((f) => ({ filename: f.filename, type: f.type, base64: Buffer.from(f.bytes).toString('base64') }));
      const answer = (kind: ReceiverKind, destination: string, status: number, payload: string, extra: Record<string, string> = {}) => {
        const entry: Received = { kind, destination, method: req.method ?? 'GET', headers, body, at: now(), status, ...(images.length > 0 ? { images } : {}) };
        received.push(entry);
        if (options.stateFile) appendFileSync(options.stateFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
        res.writeHead(status, { 'content-type': payload.startsWith('{') ? 'application/json' : 'text/plain', ...extra });
        res.end(payload);
      };
      if (req.method === 'GET' && path === '/received') {
        // What the receivers were sent, newest first, for a person watching the demo.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            received
              .slice(-200)
              .reverse()
              .map((r) => ({ kind: r.kind, status: r.status, at: new Date(r.at).toISOString(), body: parse(r.body) ?? r.body })),
            null,
            2,
          ),
        );
        return;
      }
      const file = req.method === 'GET' ? /^\/files\/(\d+)\/(\d+)$/.exec(path) : null;
      if (file) {
        const image = received[Number(file[1])]?.images?.[Number(file[2])];
        if (!image) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('no such file');
          return;
        }
        res.writeHead(200, { 'content-type': image.type, 'x-content-type-options': 'nosniff' }).end(Buffer.from(image.base64, 'base64'));
        return;
      }
      if (req.method === 'GET' && path === '/channels') {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'",
          'x-content-type-options': 'nosniff',
        });
        res.end(channelsView(received));
        return;
      }
      const route = routeOf(path, body);
      if (route === null) return answer('webhook', path, 404, 'not found');
      const scripted = scripts.get(route.destination)?.shift();
      if (scripted?.delayMs) {
        unanswered++;
        await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
        unanswered--;
      }
      if (scripted) return answer(route.kind, route.destination, scripted.status, scripted.body ?? '', { ...scripted.headers });
      switch (route.kind) {
        case 'slack': {
          const problem = checkSlack(parse(body));
          if (problem) return answer('slack', route.destination, 400, problem);
          const fit = admit(`slack:${route.destination}`, RECEIVER_RATES.slack);
          if (!fit.ok) return answer('slack', route.destination, 429, 'rate_limited', { 'retry-after': String(Math.ceil(fit.waitMs / 1000)) });
          return answer('slack', route.destination, 200, 'ok');
        }
        case 'discord': {
          const upload = form ? discordMultipart(form) : null;
          if (upload?.problem)
            return answer(
              'discord',
              route.destination,
              upload.status,
              JSON.stringify({ code: upload.status === 413 ? 40005 : 50035, message: upload.problem }),
            );
          const problem = checkDiscord(upload ? upload.body : parse(body));
          if (problem) return answer('discord', route.destination, 400, JSON.stringify({ code: 50035, message: problem }));
          const fit = admit(`discord:${route.destination}`, RECEIVER_RATES.discord);
          const bucket = { 'x-ratelimit-limit': String(RECEIVER_RATES.discord.count), 'x-ratelimit-bucket': route.destination.slice(0, 16) };
          if (!fit.ok) {
            const after = fit.waitMs / 1000;
            return answer('discord', route.destination, 429, JSON.stringify({ message: 'You are being rate limited.', retry_after: after, global: false }), {
              ...bucket,
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset-after': after.toFixed(3),
              'retry-after': String(Math.ceil(after)),
            });
          }
          return answer('discord', route.destination, 200, JSON.stringify({ id: String(received.length + 1) }), {
            ...bucket,
            'x-ratelimit-remaining': String(fit.remaining),
            'x-ratelimit-reset-after': (RECEIVER_RATES.discord.windowMs / 1000).toFixed(3),
          });
        }
        case 'telegram': {
          const upload = form ? telegramMultipart(route.method, form) : null;
          const noPhoto = !form && route.method === 'sendPhoto' && typeof (parse(body) as { photo?: unknown } | undefined)?.photo !== 'string';
          const problem = noPhoto
            ? 'Bad Request: there is no photo in the request'
            : (upload?.problem ?? checkTelegram(route.method, upload ? upload.body : parse(body)));
          if (problem) return answer('telegram', route.destination, 400, JSON.stringify({ ok: false, error_code: 400, description: problem }));
          const group = !/^chat:\d+$/.test(route.destination);
          const groupFit = group ? admit(`telegram-group:${route.destination}`, RECEIVER_RATES.telegramGroup, false) : ({ ok: true, remaining: 0 } as const);
          const fit = groupFit.ok ? admit(`telegram:${route.destination}`, RECEIVER_RATES.telegram) : groupFit;
          if (fit.ok && group) admit(`telegram-group:${route.destination}`, RECEIVER_RATES.telegramGroup);
          if (!fit.ok) {
            const after = Math.ceil(fit.waitMs / 1000);
            return answer(
              'telegram',
              route.destination,
              429,
              JSON.stringify({ ok: false, error_code: 429, description: `Too Many Requests: retry after ${after}`, parameters: { retry_after: after } }),
            );
          }
          return answer('telegram', route.destination, 200, JSON.stringify({ ok: true, result: { message_id: received.length + 1 } }));
        }
        case 'pagerduty': {
          const problem = checkPagerDuty(parse(body));
          if (problem)
            return answer(
              'pagerduty',
              route.destination,
              400,
              JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors: [problem] }),
            );
          const fit = admit(`pagerduty:${route.destination}`, RECEIVER_RATES.pagerduty);
          if (!fit.ok) return answer('pagerduty', route.destination, 429, '');
          const dedup = track(route.destination, parse(body) as { event_action?: unknown; dedup_key?: unknown });
          return answer('pagerduty', route.destination, 202, JSON.stringify({ status: 'success', message: 'Event processed', dedup_key: dedup }));
        }
        case 'webhook':
          return answer('webhook', route.destination, 200, '');
        case 'teams': {
          // Power Automate's answers: 413 past the size, 400 for a card it cannot post, 429 past the rate, else 202 Accepted.
          const error = (code: string, message: string) => JSON.stringify({ error: { code, message } });
          if (raw.length > TEAMS_MAX_BODY_BYTES) return answer('teams', route.destination, 413, error('RequestEntityTooLarge', 'Request entity too large'));
          const problem = checkTeams(parse(body));
          if (problem) return answer('teams', route.destination, 400, error('InvalidRequestContent', problem));
          const fit = admit(`teams:${route.destination}`, RECEIVER_RATES.teams);
          if (!fit.ok)
            return answer('teams', route.destination, 429, error('TooManyRequests', 'Rate limit is exceeded. Try again later.'), {
              'retry-after': String(Math.ceil(fit.waitMs / 1000)),
            });
          return answer('teams', route.destination, 202, '');
        }
      }
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: base,
    slackUrl: (path) => `${base}/slack/services/${path}`,
    discordUrl: (id, token) => `${base}/discord/api/webhooks/${id}/${token}`,
    telegramApiUrl: `${base}/telegram`,
    pagerdutyEventsUrl: `${base}/pagerduty`,
    webhookUrl: (path) => `${base}/webhook/${path}`,
    teamsUrl: (id) => `${base}/teams/workflows/${id}/triggers/manual/paths/invoke?api-version=1&sig=local-${id}`,
    received,
    incidents,
    unmatchedResolves,
    script: (destination, answers) => scripts.set(destination, [...(scripts.get(destination) ?? []), ...answers]),
    unanswered: () => unanswered,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a state file kept (the newest `KEPT`), rewriting it as that; unreadable lines are dropped. */
function restore(file: string): Received[] {
  mkdirSync(dirname(file), { recursive: true });
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // first run
  }
  const kept: Received[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = receivedSchema.safeParse(JSON.parse(line));
      if (parsed.success) kept.push(parsed.data as Received);
    } catch {
      // a line cut short by a kill
    }
  }
  const newest = kept.slice(-KEPT);
  writeFileSync(file, newest.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
  return newest;
}

/** Which receiver a path is for, and its destination key. */
function routeOf(path: string, body: string): { kind: ReceiverKind; destination: string; method: string } | null {
  let m = /^\/slack\/services\/(.+)$/.exec(path);
  if (m?.[1]) return { kind: 'slack', destination: m[1], method: 'POST' };
  m = /^\/discord\/api\/webhooks\/([^/]+\/[^/]+)$/.exec(path);
  if (m?.[1]) return { kind: 'discord', destination: m[1], method: 'POST' };
  m = /^\/telegram\/bot([^/]+)\/(sendMessage|sendPhoto)$/.exec(path);
  if (m?.[2]) {
    const chat = (parse(body) as { chat_id?: unknown } | undefined)?.chat_id;
    return { kind: 'telegram', destination: `chat:${String(chat)}`, method: m[2] };
  }
  if (path === '/pagerduty/v2/enqueue')
    return { kind: 'pagerduty', destination: String((parse(body) as { routing_key?: unknown } | undefined)?.routing_key), method: 'POST' };
  m = /^\/teams\/workflows\/([^/]+)\/triggers\/manual\/paths\/invoke$/.exec(path);
  if (m?.[1]) return { kind: 'teams', destination: m[1], method: 'POST' };
  m = /^\/webhook\/(.+)$/.exec(path);
  if (m?.[1]) return { kind: 'webhook', destination: m[1], method: 'POST' };
  return null;
}
