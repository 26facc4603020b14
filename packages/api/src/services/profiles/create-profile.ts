import { randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import { DEFAULT_VALIDATION_FLAGS } from '@folio/cfdi';
import { insertProfileWithinLimit } from '@folio/db/queries/profiles';
import type { z } from 'zod';
import type { Context } from '../../context';
import { conflict, forbidden } from '../../errors';
import type { Profile, ProfileFields } from '../../schemas/profile';
import { audit } from '../audit';
import { toProfile } from './profile-dto';
import { validRegimes, validRfc } from './rules';

export async function createProfile(
  ctx: Context,
  userId: string,
  input: z.infer<typeof ProfileFields>,
): Promise<Profile> {
  const rfc = validRfc(input.rfc, input.tipo_persona);
  const regimes = await validRegimes(ctx.db, input.regimenes_fiscales ?? [], input.tipo_persona);
  const { limits, plan } = await getEntitlements(ctx.db, userId);
  const result = await insertProfileWithinLimit(
    ctx.db,
    {
      id: randomUUID(),
      userId,
      nombre: input.nombre,
      rfc,
      tipoPersona: input.tipo_persona,
      regimenesFiscales: regimes,
      validacionesHabilitadas: { ...DEFAULT_VALIDATION_FLAGS, ...input.validaciones_habilitadas },
    },
    limits.profiles,
  );
  if (!result.ok) {
    throw result.reason === 'limit'
      ? forbidden(
          `Your ${plan} plan allows ${limits.profiles} profile(s); upgrade to add more`,
          'plan_limit_reached',
        )
      : conflict(`You already have a profile with RFC ${rfc}`, 'rfc_taken');
  }
  await audit(ctx, 'profile.create', userId, { entity: 'profile', entityId: result.row.id, data: { rfc } });
  return toProfile(result.row);
}
