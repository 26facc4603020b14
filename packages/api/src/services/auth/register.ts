import { randomUUID } from 'node:crypto';
import { hashPassword } from '@folio/auth';
import { findUserByEmail, insertUser } from '@folio/db/queries/users';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import type { User } from '../../schemas/user';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { toUser } from './user-dto';
import { queueVerificationEmail } from './verification-email';

export interface RegisterInput {
  email: string;
  password: string;
  nombre?: string;
  apellido?: string;
  telefono?: string;
}

const EMAIL_TAKEN = 'Email is already registered';

/** Addresses are stored trimmed and lower-cased; login and password reset look them up the same way. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Creates the user and queues the verification email in one transaction. */
export async function register(ctx: Context, input: RegisterInput): Promise<User> {
  await enforceRateLimit(ctx, { key: `register:${ctx.req.ip ?? 'local'}`, limit: 10, windowMs: 3600_000 });
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const row = await ctx.db.transaction(async (tx) => {
    if (await findUserByEmail(tx, email)) throw badRequest(EMAIL_TAKEN);
    const created = await insertUser(tx, {
      id: randomUUID(),
      email,
      passwordHash,
      nombre: input.nombre ?? null,
      apellido: input.apellido ?? null,
      telefono: input.telefono ?? null,
    });
    // A concurrent registration of the same address won the unique index.
    if (!created) throw badRequest(EMAIL_TAKEN);
    await queueVerificationEmail(ctx, tx, created);
    await audit(ctx, 'user.register', created.id, { entity: 'user', entityId: created.id }, tx);
    return created;
  });
  ctx.kickEmail();
  return toUser(row);
}
