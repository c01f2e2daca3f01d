import { createPreferencesPageHandler, preferencesPageTables } from '../../../functions/handlers/preferences-page';
import { createRevokePageHandler, revokePageTables } from '../../../functions/handlers/revoke-page';
import type { ActionLinks } from '../../../functions/links/actionLinks';
import { mailboxNotices } from '../../../functions/services/preferences/mailboxNotice';
import { silentLog, type Counters } from '../../../functions/shared/observability';
import type { Repositories } from '../../../functions/store/repositories';
import { CsrfTokens } from '../../../functions/web/csrfToken';
import type { RevocationSigner } from '../../../functions/web/revocationSigner';
import { sesSender } from '../delivery/mailHarness';

/** What the link pages of a test are built over: its tables, its links, the form secret, its base URL and clock. */
export interface LinkPageParts {
  readonly repos: Repositories;
  readonly links: ActionLinks;
  /** The CSRF secret (at least 32 characters). */
  readonly secret: string;
  readonly publicBaseUrl: string;
  readonly now: () => number;
}

/** The real `preferences-page` handler over `parts`; its mailbox notices go out through the run's local SES. */
export function preferencesPageOf(parts: LinkPageParts) {
  return createPreferencesPageHandler({
    links: parts.links,
    csrf: new CsrfTokens(parts.secret),
    publicBaseUrl: parts.publicBaseUrl,
    ...preferencesPageTables(parts.repos),
    mailbox: mailboxNotices({ repos: parts.repos, sender: sesSender(), mailFrom: 'sentinel@example.com', now: Date.now, log: silentLog }),
    now: parts.now,
    log: silentLog,
  });
}

/** The real `revoke-page` handler over `parts`, confirming through `signer` (counting into `counters` when given). */
export function revokePageOf(parts: LinkPageParts & { readonly signer: RevocationSigner; readonly counters?: Counters }) {
  return createRevokePageHandler({
    links: parts.links,
    csrf: new CsrfTokens(parts.secret),
    publicBaseUrl: parts.publicBaseUrl,
    ...revokePageTables(parts.repos),
    signer: parts.signer,
    ...(parts.counters ? { counters: parts.counters } : {}),
    now: parts.now,
    log: silentLog,
  });
}
