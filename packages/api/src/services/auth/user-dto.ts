import type { UserRow } from '@folio/auth';
import type { User } from '../../schemas/user';

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
