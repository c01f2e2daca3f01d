import type { TrackedAccount } from '../../domain/account';
import { addressSchema } from '../../domain/address';
import { normalEmail, receives } from '../../domain/deskScope';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { DeskOperatorsRepository } from '../../store/deskOperatorsRepository';
import type { RecipientsRepository } from '../../store/recipientsRepository';
import { isOperator } from '../../notices/audience';

/** Who is looking: a recipient, and whether it is an operator (who sees every account). */
export interface DeskViewer {
  readonly email: string;
  readonly operator: boolean;
}

/** What deciding a viewer's accounts reads. */
export interface DeskScopeDeps {
  readonly accounts: Pick<AccountsRepository, 'list' | 'getMany' | 'get'>;
  readonly recipients: Pick<RecipientsRepository, 'get'>;
  readonly operators: Pick<DeskOperatorsRepository, 'list'>;
  /** `OPERATOR_EMAIL`: an operator whatever the operators list says. */
  readonly operatorEmail: string | null;
}

/** The viewer `email` is: an operator when it is `OPERATOR_EMAIL` or on the desk's operators list. */
export async function viewerOf(deps: Pick<DeskScopeDeps, 'operators' | 'operatorEmail'>, email: string): Promise<DeskViewer> {
  return { email: normalEmail(email), operator: await isOperator(deps, email) };
}

/**
 * The accounts `viewer` sees: every account for an operator; else those it receives. A recipient
 * with a recipient record is looked up through the record's account set (kept by `accounts
 * add/update/import/remove`), each account re-read and kept only if it still mails the
 * recipient; a recipient without one through the account listing (the accounts table has no
 * index by recipient: `Query` of the schedule index's shards and `BatchGetItem`, as `recipients
 * list` does).
 */
export async function accountsOf(deps: DeskScopeDeps, viewer: DeskViewer): Promise<TrackedAccount[]> {
  if (viewer.operator) return deps.accounts.list();
  const record = await deps.recipients.get(viewer.email);
  const candidates = record && record.accounts.length > 0 ? await deps.accounts.getMany(record.accounts) : await deps.accounts.list();
  return candidates.filter((account) => receives(account, viewer.email));
}

/**
 * The account `address` (in any case, as the CLI takes it: read by `addressSchema`, so a lower-case
 * address finds its checksummed account) if `viewer` sees it; `null` when it is not an address (a
 * mixed case with a wrong checksum included), not tracked or not the viewer's (all answer 404).
 */
export async function accountFor(deps: Pick<DeskScopeDeps, 'accounts'>, viewer: DeskViewer, address: string): Promise<TrackedAccount | null> {
  const read = addressSchema.safeParse(address);
  if (!read.success) return null;
  const account = await deps.accounts.get(read.data);
  if (!account) return null;
  return viewer.operator || receives(account, viewer.email) ? account : null;
}

/** Whether `email` may sign in: an operator, or the recipient of at least one account. */
export async function mayUseDesk(deps: DeskScopeDeps, email: string): Promise<boolean> {
  const viewer = await viewerOf(deps, email);
  return viewer.operator || (await accountsOf(deps, viewer)).length > 0;
}
