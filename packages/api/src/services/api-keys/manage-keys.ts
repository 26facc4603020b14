import { randomUUID } from 'node:crypto';
import type { UserRow } from '@folio/auth';
import { generateApiKey } from '@folio/auth';
import { getEntitlements } from '@folio/billing';
import { insertApiKeyWithinLimit, listActiveApiKeys, revokeApiKey } from '@folio/db/queries/api-keys';
import type { z } from 'zod';
import type { Context } from '../../context';
import { forbidden, notFound, planRequired } from '../../errors';
import type { ApiKey, CreateApiKeyInput, NewApiKey } from '../../schemas/api-key';
import { audit } from '../audit';
import { requireVerifiedEmail } from '../auth/require-verified-email';
import { toApiKey } from './api-key-dto';
import { API_ACCESS_REQUIRED, MAX_ACTIVE_API_KEYS } from './rules';

const DAY_MS = 86_400_000;

/** Mints a key; its secret is in this answer only (the database keeps its hash). */
export async function createApiKey(
  ctx: Context,
  user: UserRow,
  input: z.infer<typeof CreateApiKeyInput>,
): Promise<z.infer<typeof NewApiKey>> {
  requireVerifiedEmail(user);
  const { limits } = await getEntitlements(ctx.db, user.id);
  if (!limits.apiAccess) throw planRequired(API_ACCESS_REQUIRED);
  const { key, hash, prefix } = generateApiKey();
  const expiresAt = input.expires_in_days ? new Date(Date.now() + input.expires_in_days * DAY_MS) : null;
  const row = await insertApiKeyWithinLimit(
    ctx.db,
    {
      id: randomUUID(),
      userId: user.id,
      name: input.name,
      scope: input.scope,
      prefix,
      secretHash: hash,
      expiresAt,
    },
    MAX_ACTIVE_API_KEYS,
  );
  if (!row) {
    throw forbidden(
      `You already have ${MAX_ACTIVE_API_KEYS} active API keys; revoke one to create another`,
      'api_key_limit_reached',
    );
  }
  await audit(ctx, 'api_key.create', user.id, {
    entity: 'api_key',
    entityId: row.id,
    data: { name: row.name, scope: row.scope, prefix },
  });
  return { ...toApiKey(row), key };
}

export async function listApiKeys(ctx: Context, userId: string): Promise<z.infer<typeof ApiKey>[]> {
  return (await listActiveApiKeys(ctx.db, userId)).map(toApiKey);
}

/** Revokes one of the caller's active keys at once; anything else is 404 (no hint whose it is). */
export async function revokeOwnApiKey(ctx: Context, userId: string, id: string): Promise<void> {
  if (!(await revokeApiKey(ctx.db, userId, id))) throw notFound('API key not found');
  await audit(ctx, 'api_key.revoke', userId, { entity: 'api_key', entityId: id });
}
