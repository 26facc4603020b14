import { z } from 'zod';

export const ApiKeyScope = z.enum(['read', 'write']);

const example = {
  id: '5b0c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4',
  name: 'Contabilidad nocturna',
  scope: 'write',
  prefix: 'folio_k3x9qa',
  created_at: '2025-03-01T16:00:00.000Z',
  expires_at: null,
  last_used_at: null,
} as const;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    scope: ApiKeyScope,
    /** The first 12 characters of the key, to recognise it. */
    prefix: z.string(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: 'ApiKey', example });

/** What POST answers once: the key itself, never shown again. */
export const NewApiKey = ApiKey.extend({ key: z.string() }).meta({
  id: 'NewApiKey',
  example: { ...example, key: 'folio_k3x9qa…' },
});

export const CreateApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    scope: ApiKeyScope.default('write'),
    expires_in_days: z.number().int().min(1).max(365).optional(),
  })
  .meta({ example: { name: 'Contabilidad nocturna', scope: 'read', expires_in_days: 90 } });
