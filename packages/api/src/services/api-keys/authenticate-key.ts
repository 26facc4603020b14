import { hashToken } from '@folio/auth';
import { getEntitlements } from '@folio/billing';
import { findActiveApiKey, recordApiKeyIp, touchApiKey } from '@folio/db/queries/api-keys';
import type { Context } from '../../context';
import { forbidden, planRequired, unauthorized } from '../../errors';
import { audit } from '../audit';
import type { Principal } from '../auth/principal';
import { API_ACCESS_REQUIRED, LAST_USED_RESOLUTION_MS } from './rules';

/**
 * The owner of an active key, as long as their plan includes API access (a downgrade suspends the
 * key, an upgrade revives it). Reads one row per request; writes only when last_used_at is a
 * minute old or the key is used from an IP it was never used from (audited).
 */
export async function authenticateApiKey(
  ctx: Context,
  key: string,
  access: 'read' | 'write',
): Promise<Principal> {
  const { ip } = ctx.req;
  const found = await findActiveApiKey(ctx.db, hashToken(key), ip ?? '');
  if (!found) throw unauthorized('Invalid, revoked or expired API key', 'api_key_invalid');
  const { key: row, user } = found;
  const { limits } = await getEntitlements(ctx.db, user.id);
  if (!limits.apiAccess) {
    throw planRequired(`${API_ACCESS_REQUIRED}; your key works again after an upgrade`);
  }
  if (access === 'write' && row.scope === 'read') {
    throw forbidden(
      'This API key is read-only: it may use GET routes and tRPC queries only',
      'api_key_read_only',
    );
  }
  if (ip && !found.knownIp && (await recordApiKeyIp(ctx.db, row.id, ip))) {
    await audit(ctx, 'api_key.new_ip', user.id, { entity: 'api_key', entityId: row.id });
  }
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await touchApiKey(ctx.db, row.id, LAST_USED_RESOLUTION_MS);
  }
  return { user, via: 'api_key', scope: row.scope, session: null, apiKeyId: row.id };
}
