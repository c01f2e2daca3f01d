import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DeliveryRepositoryOptions } from './deliveryRepository';
import type { Repositories } from './repositories';

/** A repository class, as every one of `Repositories` is constructed (some ignore `options`). */
export type RepositoryClass<T> = new (client: DynamoDBDocumentClient, prefix: string, options: DeliveryRepositoryOptions) => T;

/** The classes of some of `Repositories`, by name. */
export type RepositoryClasses<K extends keyof Repositories> = { readonly [P in K]: RepositoryClass<Repositories[P]> };

/**
 * Builds only the repositories named in `classes`, over one document client and table prefix. A
 * Lambda passes the classes it uses, so its bundle holds no other repository (`createRepositories`
 * imports them all).
 */
export function repositoriesOf<K extends keyof Repositories>(
  client: DynamoDBDocumentClient,
  prefix: string,
  classes: RepositoryClasses<K>,
  options: DeliveryRepositoryOptions = {},
): Pick<Repositories, K> {
  const entries = (Object.keys(classes) as K[]).map((name) => [name, new classes[name](client, prefix, options)] as const);
  return Object.fromEntries(entries) as unknown as Pick<Repositories, K>;
}

/**
 * The repositories named in `classes`, taken out of a fuller set (the local system's, a test
 * world's): the same ones `repositoriesOf` builds from `classes` for a Lambda.
 */
export function pickRepositories<K extends keyof Repositories>(repos: Pick<Repositories, K>, classes: RepositoryClasses<K>): Pick<Repositories, K> {
  const entries = (Object.keys(classes) as K[]).map((name) => [name, repos[name]] as const);
  return Object.fromEntries(entries) as unknown as Pick<Repositories, K>;
}
