import { randomUUID } from 'node:crypto';
import { hashPassword } from '@folio/auth';
import { users } from '@folio/db/schema';
import { sql } from 'drizzle-orm';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { toUser, type User } from '../../schemas/user';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { queueVerificationEmail } from './verification-email';

export interface RegisterInput {
  email: string;
  password: string;
  nombre?: string;
  apellido?: string;
  telefono?: string;
}

const EMAIL_TAKEN = 'Email is already registered';

/** Creates the user and queues the verification email in one transaction. */
export async function register(ctx: Context, input: RegisterInput): Promise<User> {
  await enforceRateLimit(ctx, { key: `register:${ctx.req.ip ?? 'local'}`, limit: 10, windowMs: 3600_000 });
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const row = await ctx.db.transaction(async (tx) => {
    const taken = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
    if (taken.length) throw badRequest(EMAIL_TAKEN);
    const [created] = await tx
      .insert(users)
      .values({
        id: randomUUID(),
        email,
        passwordHash,
        nombre: input.nombre ?? null,
        apellido: input.apellido ?? null,
        telefono: input.telefono ?? null,
      })
      .onConflictDoNothing()
      .returning();
    // A concurrent registration of the same address won the unique index.
    if (!created) throw badRequest(EMAIL_TAKEN);
    await queueVerificationEmail(ctx, tx, created);
    await audit(ctx, 'user.register', created.id, { entity: 'user', entityId: created.id }, tx);
    return created;
  });
  ctx.kickEmail();
  return toUser(row);
}
