import type { UserRow } from '@folio/auth';
import { z } from 'zod';

export const User = z
  .object({
    id: z.string(),
    email: z.string(),
    nombre: z.string().nullable(),
    apellido: z.string().nullable(),
    telefono: z.string().nullable(),
    email_verified: z.boolean(),
    tour_version: z.string().nullable(),
    tour_completed_at: z.string().nullable(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    nombre: row.nombre,
    apellido: row.apellido,
    telefono: row.telefono,
    email_verified: row.emailVerified,
    tour_version: row.tourVersion,
    tour_completed_at: row.tourCompletedAt?.toISOString() ?? null,
  };
}

export const Message = z.object({ message: z.string() });
