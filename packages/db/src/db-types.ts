import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; every query function accepts either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What runs a statement: the database itself, or a transaction inside it. */
export type Executor = Db | Tx;
