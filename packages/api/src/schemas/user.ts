import { z } from 'zod';
import { Email, Timestamp, Uuid } from './formats';

export const User = z
  .object({
    id: Uuid,
    email: Email,
    nombre: z.string().nullable(),
    apellido: z.string().nullable(),
    telefono: z.string().nullable(),
    email_verified: z.boolean(),
    tour_version: z.string().nullable(),
    tour_completed_at: Timestamp.nullable(),
  })
  .meta({
    id: 'User',
    example: {
      id: 'b66444ed-90fa-4fa2-9bc3-d77994b73c1a',
      email: 'ana@example.com',
      nombre: 'Ana',
      apellido: 'Pérez',
      telefono: null,
      email_verified: false,
      tour_version: null,
      tour_completed_at: null,
    },
  });
export type User = z.infer<typeof User>;

export const Message = z.object({ message: z.string() });
