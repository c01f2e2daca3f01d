import { LINK_RATE_WINDOW_SECONDS } from '../../../infra/config/stageConfig';

/** The synthesized limits a flood of junk link requests meets. */
export interface FloodLimits {
  /** Per source IP, per {@link LINK_RATE_WINDOW_SECONDS}: requests, POSTs among them (WAF). */
  readonly waf: { readonly requests: number; readonly posts: number };
  /** The stage-wide API Gateway throttle, requests/s. */
  readonly stageRps: number;
  /** The `POST /revoke` method throttle, requests/s; null when there is none. */
  readonly revokePostRps: number | null;
}

/**
 * How many ordinary (non-anonymous) source IPs, each sending junk at the WAF's per-IP limit, it
 * takes to fill the first shared cap in front of a valid revocation confirm, so that the confirm
 * gets 429. Junk POSTs count against the POST cap (`waf.posts` per IP), and every request against
 * the stage (`waf.requests` per IP). Junk without a well-formed token, blocked by the WAF since
 * issue 22, counts against neither: past that, only forged well-formed tokens or GETs count.
 */
export function junkClientsToBlockConfirm(limits: FloodLimits): { clients: number; by: 'revoke POST throttle' | 'stage throttle' } {
  const postRpsPerIp = limits.waf.posts / LINK_RATE_WINDOW_SECONDS;
  const requestRpsPerIp = limits.waf.requests / LINK_RATE_WINDOW_SECONDS;
  const stage = Math.ceil(limits.stageRps / requestRpsPerIp - 1e-9);
  if (limits.revokePostRps === null) return { clients: stage, by: 'stage throttle' };
  const revoke = Math.ceil(limits.revokePostRps / postRpsPerIp - 1e-9);
  return revoke <= stage ? { clients: revoke, by: 'revoke POST throttle' } : { clients: stage, by: 'stage throttle' };
}
