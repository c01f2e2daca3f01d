/**
 * The one list of Lambda handlers, one file each at `functions/handlers/<name>.ts` (or its
 * `entryFile`) exporting `handler`, with what each needs: the settings it cannot start without (`settingsFor`), its
 * timeout and memory (the CDK stack), the AWS SDK clients its bundle holds (the bundle tests),
 * and what ships next to its bundle (infra/bundling). Config, infra, bench and tests read this;
 * `test/unit/runtime/handlerSettings.test.ts` checks it against the files present. Data only: it
 * imports nothing, so every layer may read it.
 */

/** Settings a function cannot work without when unset (the rest have defaults or are optional). */
export type RequirableSetting =
  | 'ROCKET_NODE_URL'
  | 'ROCKET_INDEXER_URL'
  | 'PUBLIC_BASE_URL'
  | 'COLLECT_QUEUE_URL'
  | 'NOTIFY_QUEUE_URL'
  | 'REPORT_QUEUE_URL'
  | 'SIGN_REVOCATION_FUNCTION_NAME'
  | 'CHANNEL_TEST_FUNCTION_NAME'
  | 'CHANNEL_QUEUE_URL'
  | 'FANOUT_QUEUE_URL'
  | 'REVOCATION_QUEUE_URL'
  | 'DECISION_QUEUE_URL';

/** A link purpose (`LINK_PURPOSES` of functions/domain/linkClaims.ts; the settings test checks they match). */
export type LinkPurposeName =
  'revoke' | 'revoke-all' | 'unsubscribe' | 'snooze' | 'preferences' | 'security-off' | 'channel-snooze' | 'channel-preferences' | 'desk-sign-in';

/** An AWS SDK v3 client package, without its `@aws-sdk/` scope. */
export type SdkClient = 'client-dynamodb' | 'client-kms' | 'client-lambda' | 'client-secrets-manager' | 'client-ses' | 'client-sqs' | 'client-ssm';

/** What one handler needs. */
export interface HandlerSpec {
  /**
   * Its entry file in `functions/handlers/` when it is not `<name>.ts`: named for what it does while
   * the deployed function keeps its name and CDK logical id (renaming those would replace the function
   * and its queue event source; see docs/deploy.md).
   */
  readonly entryFile?: string;
  /**
   * What it requires besides the defaults, and its link keys: the purposes whose private keys it
   * holds (`mints`: their secrets under `LINK_KEY_SECRET_PREFIX`) and the purposes it reads links of
   * with public keys only (`verifies`: `LINK_PUBLIC_KEYS_PARAMETER`, with the pages' own
   * `CSRF_SECRET_ARN` unless `forms: false`). Locally `SENTINEL_LINK_SECRET` stands for all of them.
   */
  readonly requires: {
    readonly settings: readonly RequirableSetting[];
    readonly links: {
      readonly mints: readonly LinkPurposeName[];
      readonly verifies: readonly LinkPurposeName[];
      /** `false` for a function that verifies links but serves no page (the signer): no anti-CSRF secret, no `PUBLIC_BASE_URL`. */
      readonly forms?: false;
    };
  };
  /** Timeout (s) and memory (MB) of its Lambda. */
  readonly sizing: { readonly timeoutSeconds: number; readonly memoryMb: number };
  /** The SDK clients it talks to, sorted; its bundle holds exactly these. */
  readonly sdkClients: readonly SdkClient[];
  /**
   * What ships next to its bundle: `templates/` (read from `TEMPLATES_DIR`), the chart fonts in
   * `fonts/` (Lambda has no system fonts), and packages with a native addon (esbuild cannot bundle
   * `.node` files: they stay external and are copied with the binary for the function's architecture),
   * and the desk page's browser client in `desk-assets/` (read from `DESK_ASSETS_DIR`).
   */
  readonly bundle: { readonly templates: boolean; readonly fonts: boolean; readonly nativeModules: readonly string[]; readonly deskClient: boolean };
}

const PLAIN = { templates: false, fonts: false, nativeModules: [], deskClient: false } as const;
/** Email renderers: Handlebars templates, and the chart PNG drawn by `@resvg/resvg-js` with its fonts. */
const MAIL = { templates: true, fonts: true, nativeModules: ['@resvg/resvg-js'], deskClient: false } as const;

/** Every handler, by name. */
export const HANDLER_CATALOG = {
  dispatch: {
    requires: { settings: ['COLLECT_QUEUE_URL'], links: { mints: [], verifies: [] } },
    sizing: { timeoutSeconds: 60, memoryMb: 512 },
    sdkClients: ['client-dynamodb', 'client-sqs'],
    bundle: PLAIN,
  },
  collect: {
    // DECISION_QUEUE_URL: where the protection service queues automatic revocations (unknown keys, the kill switch).
    // NOTIFY_QUEUE_URL and FANOUT_QUEUE_URL: each event goes to both (`notifyPublisher`).
    requires: {
      settings: ['ROCKET_NODE_URL', 'ROCKET_INDEXER_URL', 'NOTIFY_QUEUE_URL', 'FANOUT_QUEUE_URL', 'DECISION_QUEUE_URL'],
      links: { mints: [], verifies: [] },
    },
    // A batch of up to 10 accounts (or delegate-watch jobs of up to 100) at the instance's CHAIN_RPS,
    // first polls backfilling in chunks. Its time is the token bucket, not CPU, and Lambda bills the
    // wait by memory: at 128 MB (~1/14 vCPU) a steady-state chain request's CPU (< 5 ms measured, ~70 ms
    // there) still fits in the bucket's 118 ms between requests at 8.5 rps, and the heaviest job, a
    // 7-day backfill at 1m, peaked at 78 MB resident (`bench/collectMemory.ts`).
    sizing: { timeoutSeconds: 120, memoryMb: 128 },
    // SSM: the stage-wide protection switch, read by the protection service before it decides.
    sdkClients: ['client-dynamodb', 'client-sqs', 'client-ssm'],
    bundle: PLAIN,
  },
  'report-dispatch': {
    requires: { settings: ['REPORT_QUEUE_URL'], links: { mints: [], verifies: [] } },
    sizing: { timeoutSeconds: 60, memoryMb: 512 },
    // SES for the missed-report notice to OPERATOR_EMAIL (its client is made on the first such email only).
    sdkClients: ['client-dynamodb', 'client-ses', 'client-sqs'],
    bundle: PLAIN,
  },
  notify: {
    requires: {
      settings: ['PUBLIC_BASE_URL', 'CHANNEL_QUEUE_URL'],
      // The email links only: the chats' notices (their channel-snooze and channel-preferences links) are the fan-out's.
      links: { mints: ['revoke', 'revoke-all', 'snooze', 'unsubscribe', 'preferences'], verifies: [] },
    },
    // Rendering (Handlebars, inlined CSS, chart PNG) is CPU-bound: more memory buys CPU.
    sizing: { timeoutSeconds: 60, memoryMb: 1024 },
    // SQS: the onboarding check's channel notice (one job per routed channel); a failed record's backoff (ChangeMessageVisibility).
    sdkClients: ['client-dynamodb', 'client-secrets-manager', 'client-ses', 'client-sqs'],
    bundle: MAIL,
  },
  'daily-report': {
    entryFile: 'report-worker',
    requires: {
      // FANOUT_QUEUE_URL: an account report's chat notice, published once (channel-fanout routes it and mints each channel's link).
      // CHANNEL_QUEUE_URL: a digest's chat notices, one job per channel taking some of its accounts' reports.
      settings: ['PUBLIC_BASE_URL', 'ROCKET_NODE_URL', 'ROCKET_INDEXER_URL', 'FANOUT_QUEUE_URL', 'CHANNEL_QUEUE_URL'],
      links: { mints: ['revoke', 'unsubscribe', 'preferences'], verifies: [] },
    },
    // The report worker: a batch of reports rendered in parallel (1 vCPU), sent at its share of the
    // mail rate, throttled sends backed off for up to ~30 s.
    sizing: { timeoutSeconds: 120, memoryMb: 1769 },
    sdkClients: ['client-dynamodb', 'client-secrets-manager', 'client-ses', 'client-sqs'],
    bundle: MAIL,
  },
  'revoke-page': {
    requires: { settings: ['PUBLIC_BASE_URL', 'SIGN_REVOCATION_FUNCTION_NAME'], links: { mints: [], verifies: ['revoke'] } },
    // Must answer within API Gateway's 30 s integration limit while it waits for `sign-revocation`.
    sizing: { timeoutSeconds: 29, memoryMb: 512 },
    sdkClients: ['client-dynamodb', 'client-lambda', 'client-secrets-manager', 'client-ssm'],
    bundle: PLAIN,
  },
  'revoke-all-page': {
    requires: { settings: ['PUBLIC_BASE_URL', 'REVOCATION_QUEUE_URL'], links: { mints: [], verifies: ['revoke-all'] } },
    // GET lists the delegates; POST marks up to 50 units queued (one conditional write each) and
    // queues them: no signing here, so no invoke of `sign-revocation`.
    sizing: { timeoutSeconds: 29, memoryMb: 512 },
    sdkClients: ['client-dynamodb', 'client-secrets-manager', 'client-sqs', 'client-ssm'],
    bundle: PLAIN,
  },
  'revoke-all-worker': {
    // NOTIFY_QUEUE_URL and FANOUT_QUEUE_URL: the revoke-all result goes to both (`notifyPublisher`).
    requires: { settings: ['SIGN_REVOCATION_FUNCTION_NAME', 'NOTIFY_QUEUE_URL', 'FANOUT_QUEUE_URL'], links: { mints: [], verifies: [] } },
    // One delegate per invocation (FIFO batch of 1): the signer's 25 s, its 3 s throttle retry, and the unit's writes.
    sizing: { timeoutSeconds: 45, memoryMb: 256 },
    sdkClients: ['client-dynamodb', 'client-lambda', 'client-sqs'],
    bundle: PLAIN,
  },
  'decision-worker': {
    requires: { settings: ['SIGN_REVOCATION_FUNCTION_NAME'], links: { mints: [], verifies: [] } },
    // One delegate of a protective decision per invocation (FIFO batch of 1): the signer's 25 s and its 3 s throttle retry.
    // It reads and writes no table: the signer re-checks the decision and audits; SQS only for a retried unit's backoff.
    sizing: { timeoutSeconds: 45, memoryMb: 256 },
    sdkClients: ['client-lambda', 'client-sqs'],
    bundle: PLAIN,
  },
  'channel-fanout': {
    requires: {
      // CHANNEL_QUEUE_URL: the one job per channel taking the event or the report.
      settings: ['PUBLIC_BASE_URL', 'CHANNEL_QUEUE_URL'],
      // The links of the notices it fans out (a report's: each channel's channel-preferences link).
      links: { mints: ['revoke', 'revoke-all', 'channel-snooze', 'channel-preferences'], verifies: [] },
    },
    // A batch of published events and reports (`FANOUT_BATCH_SIZE`), each a few item reads, a
    // drawdown's chart PNG drawn once for the chats that show it (a report's comes drawn), and one
    // batch of channel jobs: the drawing is CPU, and more memory buys it.
    sizing: { timeoutSeconds: 60, memoryMb: 1024 },
    // Tables it reads: accounts (one item), channels (the `channel` partition, cached), alerts (the
    // account's channel controls), curves (the chart's window), delegates (the revoke-all count).
    sdkClients: ['client-dynamodb', 'client-secrets-manager', 'client-sqs'],
    // The chart: `@resvg/resvg-js` and its fonts (no email templates).
    bundle: { templates: false, fonts: true, nativeModules: ['@resvg/resvg-js'], deskClient: false },
  },
  'channel-worker': {
    requires: {
      // NOTIFY_QUEUE_URL: the notice of a channel it marked broken (the notify consumer emails it).
      // FANOUT_QUEUE_URL: a `fanout` job a producer not yet updated put on the channel queue, passed on.
      settings: ['CHANNEL_QUEUE_URL', 'NOTIFY_QUEUE_URL', 'FANOUT_QUEUE_URL'],
      links: { mints: [], verifies: [] },
    },
    // A batch of up to 10 channel jobs at once, each one HTTPS request (and, on a permanent refusal,
    // one message on the notify queue): waiting, not CPU.
    sizing: { timeoutSeconds: 60, memoryMb: 512 },
    // Secrets Manager: the channel secrets.
    sdkClients: ['client-dynamodb', 'client-secrets-manager', 'client-sqs'],
    bundle: PLAIN,
  },
  'preferences-page': {
    requires: {
      settings: ['PUBLIC_BASE_URL'],
      links: {
        mints: ['preferences', 'security-off'],
        verifies: ['unsubscribe', 'snooze', 'preferences', 'security-off', 'channel-snooze', 'channel-preferences'],
      },
    },
    sizing: { timeoutSeconds: 10, memoryMb: 512 },
    // SES: the mailbox's own notices (security-off confirmation and notice, a new preferences link).
    // SSM: the published public link keys (the pages hold no private key but their own purposes').
    sdkClients: ['client-dynamodb', 'client-secrets-manager', 'client-ses', 'client-ssm'],
    bundle: PLAIN,
  },
  'desk-page': {
    requires: {
      // CHANNEL_TEST_FUNCTION_NAME: the channels page's Test button invokes `channel-test` (it reads no channel secret).
      settings: ['PUBLIC_BASE_URL', 'CHANNEL_TEST_FUNCTION_NAME'],
      // Mints the sign-in links it mails and reads them back; and, for a signed-in viewer's Revoke and
      // Revoke all buttons on an account it receives, the same single-use revoke and revoke-all links an
      // alert email carries (which open today's confirmation pages: it verifies neither).
      links: { mints: ['desk-sign-in', 'revoke', 'revoke-all'], verifies: ['desk-sign-in'] },
    },
    // Pages are read-only over the store; the heaviest reads 30 days of 1m points (3,600 bucket
    // items) and downsamples them: more memory buys the CPU.
    sizing: { timeoutSeconds: 29, memoryMb: 1024 },
    // SES: the sign-in emails. SSM: the published public link keys. Lambda: the Test button's `channel-test`.
    sdkClients: ['client-dynamodb', 'client-lambda', 'client-secrets-manager', 'client-ses', 'client-ssm'],
    // The browser client (charts, passkeys), served from the bundle with immutable cache headers.
    bundle: { ...PLAIN, deskClient: true },
  },
  'channel-test': {
    requires: { settings: [], links: { mints: [], verifies: [] } },
    // Private, invoked by the desk's Test button: one test message, announced 429 waits waited out up to 15 s
    // (DESK_TEST_MAX_WAIT_MS), answered within the desk's 29 s.
    sizing: { timeoutSeconds: 25, memoryMb: 256 },
    // Secrets Manager: the tested channel's secret (Powertools' getSecret).
    sdkClients: ['client-dynamodb', 'client-secrets-manager'],
    bundle: PLAIN,
  },
  'sign-revocation': {
    requires: {
      // NOTIFY_QUEUE_URL and FANOUT_QUEUE_URL: the result notice goes to both (`notifyPublisher`).
      settings: ['ROCKET_NODE_URL', 'ROCKET_INDEXER_URL', 'NOTIFY_QUEUE_URL', 'FANOUT_QUEUE_URL'],
      // It verifies a click's signed link itself (public keys only), and serves no form.
      links: { mints: [], verifies: ['revoke', 'revoke-all'], forms: false },
    },
    sizing: { timeoutSeconds: 25, memoryMb: 512 },
    // SSM: the stage-wide protection switch, re-read (cached at most 30 s) before every automatic action, and the published public link keys.
    sdkClients: ['client-dynamodb', 'client-kms', 'client-sqs', 'client-ssm'],
    bundle: PLAIN,
  },
  'ses-events': {
    requires: { settings: [], links: { mints: [], verifies: [] } },
    sizing: { timeoutSeconds: 30, memoryMb: 256 },
    // SES: the operator's notice when a permanent bounce suppresses a security recipient (client made on the first one only).
    sdkClients: ['client-dynamodb', 'client-ses'],
    bundle: PLAIN,
  },
} as const satisfies Record<string, HandlerSpec>;

/** A Lambda handler by name (the deployed function's name). */
export type HandlerName = keyof typeof HANDLER_CATALOG;

/** A handler's entry file name in `functions/handlers/`, without `.ts`. */
export function handlerFile(name: HandlerName): string {
  const spec: HandlerSpec = HANDLER_CATALOG[name];
  return spec.entryFile ?? name;
}

/** Every handler name, in the catalog's order. */
export const HANDLER_NAMES = Object.keys(HANDLER_CATALOG) as readonly HandlerName[];
