import { randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import type { Executor } from '@folio/db';
import { writeAudit } from '@folio/db/queries/audit';
import { deleteEfirma, type EfirmaRow, findEfirma, replaceEfirma } from '@folio/db/queries/efirmas';
import { SatRefused, SatUnavailable } from '@folio/sat/plain';
import type { Context } from '../../context';
import { badRequest, invalidField, notFound, serviceUnavailable } from '../../errors';
import { CONSENT_VERSION } from '../../schemas/efirma';
import { requireSession } from '../api-keys/rules';
import { audit } from '../audit';
import type { Principal } from '../auth/principal';
import { seal, unseal } from '../crypto/envelope';
import { authorizeProfile } from '../profiles/access';
import { type SatSettings, satSettingsOf } from '../sat-sync/settings';
import type { EfirmaFiles } from './check-efirma';
import { deriveDevKeyring, type EfirmaKeyring } from './keyring';
import { requireSatSyncPlan } from './rules';

// A profile's stored e.firma (docs/sat-sync.md#efirma): session only, BASIC and PRO, checked before it
// is stored, encrypted at rest, and never in an answer, a log line or an error: these functions
// answer only the certificate's public facts.

export interface EfirmaUpload extends EfirmaFiles {
  consentimiento: boolean;
}

export interface EfirmaMetadata {
  rfc: string;
  numero_certificado: string;
  valido_desde: string;
  valido_hasta: string;
  consentimiento: { version: string; fecha: string; ip: string | null };
}

/** The configured keyring; outside production without one, the key derived from the auth secret. */
export const keyringOf = (ctx: Pick<Context, 'config'>): EfirmaKeyring =>
  ctx.config.efirmaKeyring ?? deriveDevKeyring(ctx.config.authSecret);

const metadataOf = (row: EfirmaRow): EfirmaMetadata => ({
  rfc: row.rfc,
  numero_certificado: row.numeroCertificado,
  valido_desde: row.validoDesde.toISOString(),
  valido_hasta: row.validoHasta.toISOString(),
  consentimiento: { version: row.consentVersion, fecha: row.consentAt.toISOString(), ip: row.consentIp },
});

async function ownProfile(ctx: Context, principal: Principal, profileRef: string, access: 'read' | 'write') {
  requireSession(principal);
  const { plan } = await getEntitlements(ctx.db, principal.user.id);
  requireSatSyncPlan(plan);
  return authorizeProfile(ctx, principal.user.id, profileRef, access);
}

/** PUT: checks the e.firma and stores it (replacing the profile's previous one); nothing on a refusal. */
export async function storeEfirma(
  ctx: Context,
  principal: Principal,
  profileRef: string,
  upload: EfirmaUpload,
  now = new Date(),
): Promise<EfirmaMetadata> {
  const profile = await ownProfile(ctx, principal, profileRef, 'write');
  if (upload.consentimiento !== true) {
    throw badRequest(
      'Storing the e.firma needs consentimiento: true (or use local mode: folio sat sync --cer --key)',
      'efirma_consent_required',
      [{ path: 'consentimiento', message: 'must be true' }],
    );
  }
  const sat = satSettingsOf(ctx.config);
  // The certificate reader and SAT's clients are loaded by the first upload, not at start
  // (docs/benchmarks.md#memory).
  const { checkEfirma } = await import('./check-efirma');
  const facts = checkEfirma(upload, profile.rfc, now, sat);
  if (sat.authenticateOnUpload) await authenticateOnce(upload, sat);
  const id = randomUUID();
  const secret = Buffer.from(
    JSON.stringify({
      cer: Buffer.from(upload.cer).toString('base64'),
      key: Buffer.from(upload.key).toString('base64'),
      password: upload.password,
    }),
    'utf8',
  );
  const sealed = seal(keyringOf(ctx), [profile.id, id], secret);
  secret.fill(0);
  const row = {
    id,
    profileId: profile.id,
    rfc: facts.rfc,
    numeroCertificado: facts.numeroCertificado,
    validoDesde: facts.validoDesde,
    validoHasta: facts.validoHasta,
    ...sealed,
    consentVersion: CONSENT_VERSION,
    consentAt: now,
    consentIp: ctx.req.ip,
    refusedAt: null,
    expiryNoticeAt: null,
  };
  await ctx.db.transaction(async (tx) => {
    await replaceEfirma(tx, row);
    await audit(
      ctx,
      'efirma.store',
      principal.user.id,
      {
        entity: 'efirma',
        entityId: id,
        data: { profileId: profile.id, numeroCertificado: facts.numeroCertificado },
      },
      tx,
    );
  });
  return metadataOf({ ...row, createdAt: now });
}

/** A revoked e.firma passes every local check; SAT's authentication refuses it. */
async function authenticateOnce(upload: EfirmaFiles, sat: SatSettings): Promise<void> {
  try {
    const { SatGateway } = await import('@folio/sat');
    await new SatGateway(upload, { target: sat.target, fetch: sat.fetch }).authenticate();
  } catch (err) {
    if (err instanceof SatRefused) {
      throw invalidField(
        'cer',
        'SAT refused this e.firma (revoked, or not valid for its services)',
        'efirma_refused_by_sat',
      );
    }
    if (err instanceof SatUnavailable) {
      throw serviceUnavailable('SAT could not be reached to check the e.firma; try again later', 60);
    }
    throw err;
  }
}

/** GET: the stored e.firma's certificate facts and consent. */
export async function readEfirma(
  ctx: Context,
  principal: Principal,
  profileRef: string,
): Promise<EfirmaMetadata> {
  const profile = await ownProfile(ctx, principal, profileRef, 'read');
  const row = await findEfirma(ctx.db, profile.id);
  if (!row) throw notFound('This profile has no stored e.firma', 'efirma_not_found');
  return metadataOf(row);
}

/** DELETE: erases the row, and with it the wrapped key. */
export async function removeEfirma(ctx: Context, principal: Principal, profileRef: string): Promise<void> {
  const profile = await ownProfile(ctx, principal, profileRef, 'write');
  await ctx.db.transaction(async (tx) => {
    if (!(await deleteEfirma(tx, profile.id)))
      throw notFound('This profile has no stored e.firma', 'efirma_not_found');
    await audit(
      ctx,
      'efirma.delete',
      principal.user.id,
      { entity: 'efirma', data: { profileId: profile.id } },
      tx,
    );
  });
}

export interface OpenedEfirma {
  rfc: string;
  cer: Buffer;
  key: Buffer;
  password: string;
}

/**
 * The decrypted e.firma, for the sync job's worker only (nothing else imports this): every call
 * writes an audit row naming its purpose. Undefined when the profile has none.
 */
export async function openEfirmaForJob(
  deps: { db: Executor; config: Context['config'] },
  profileId: string,
  purpose: string,
): Promise<OpenedEfirma | undefined> {
  const row = await findEfirma(deps.db, profileId);
  if (!row) return undefined;
  const plain = unseal(keyringOf(deps), [profileId, row.id], row);
  const parsed = JSON.parse(plain.toString('utf8')) as { cer: string; key: string; password: string };
  plain.fill(0);
  await writeAudit(deps.db, {
    userId: null,
    action: 'efirma.use',
    entity: 'efirma',
    entityId: row.id,
    data: { profileId, purpose },
  });
  return {
    rfc: row.rfc,
    cer: Buffer.from(parsed.cer, 'base64'),
    key: Buffer.from(parsed.key, 'base64'),
    password: parsed.password,
  };
}
