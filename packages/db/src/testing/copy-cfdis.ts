import { getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { cfdis } from '../schema';

/**
 * Stores `copies` copies of a stored CFDI in one INSERT … SELECT over generate_series, each with its
 * own id and UUID (upper case, as SAT stamps them) and the rest as stored: a listing of thousands of
 * matches without importing thousands of files. Tests only (the payment state, XML and relations
 * are not copied).
 */
export async function copyCfdi(db: Executor, id: string, copies: number): Promise<void> {
  const copied = Object.values(getTableColumns(cfdis))
    .filter((c) => !c.generated && c.name !== 'id' && c.name !== 'uuid')
    .map((c) => sql.identifier(c.name));
  const columns = sql.join(copied, sql`, `);
  await db.execute(sql`insert into cfdis (id, uuid, ${columns})
    select gen_random_uuid()::text, upper(gen_random_uuid()::text), ${columns}
    from cfdis, generate_series(1, ${copies}) where id = ${id}`);
}
