import type { ApiKeyRow } from '@folio/db/queries/api-keys';
import type { z } from 'zod';
import type { ApiKey } from '../../schemas/api-key';

export function toApiKey(row: ApiKeyRow): z.infer<typeof ApiKey> {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
