import { z } from 'zod';
import { Timestamp, Uuid } from './formats';

export const Period = z
  .object({
    id: Uuid,
    profile_id: Uuid,
    año: z.number(),
    mes: z.number(),
    estado: z.enum(['ABIERTO', 'CERRADO']),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({
    id: 'Period',
    example: {
      id: '9d3f2b1a-6c5e-4f7a-8b9c-0d1e2f3a4b5c',
      profile_id: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
      año: 2025,
      mes: 3,
      estado: 'ABIERTO',
      created_at: '2025-03-01T16:00:00.000Z',
      updated_at: '2025-03-01T16:00:00.000Z',
    },
  });
