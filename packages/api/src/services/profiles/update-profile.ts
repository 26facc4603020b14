import { isUniqueViolation } from '@folio/db';
import { lockProfileHoldingCfdi, updateProfile as saveProfile } from '@folio/db/queries/profiles';
import type { z } from 'zod';
import type { Context } from '../../context';
import { conflict } from '../../errors';
import type { Profile, ProfileFields } from '../../schemas/profile';
import { audit } from '../audit';
import { authorizeProfile } from './access';
import { toProfile } from './profile-dto';
import { validRegimes, validRfc } from './rules';

export type ProfilePatch = Partial<z.infer<typeof ProfileFields>>;

/**
 * Changes only the supplied fields; RFC, person type and regimes are re-checked together. The RFC of
 * a profile holding CFDI stays: its documents were issued to or by that taxpayer, and another RFC
 * would hand them to someone else (and let a FREE user keep one profile for many taxpayers).
 */
export async function updateProfile(
  ctx: Context,
  userId: string,
  profileId: string,
  patch: ProfilePatch,
): Promise<Profile> {
  const current = await authorizeProfile(ctx, userId, profileId, 'write');
  const tipoPersona = patch.tipo_persona ?? current.tipoPersona;
  const changes: Parameters<typeof saveProfile>[2] = {};
  if (patch.nombre !== undefined) changes.nombre = patch.nombre;
  if (patch.tipo_persona !== undefined) changes.tipoPersona = patch.tipo_persona;
  if (patch.rfc !== undefined || patch.tipo_persona !== undefined) {
    changes.rfc = validRfc(patch.rfc ?? current.rfc, tipoPersona);
  }
  if (patch.regimenes_fiscales !== undefined || patch.tipo_persona !== undefined) {
    changes.regimenesFiscales = await validRegimes(
      ctx.db,
      patch.regimenes_fiscales ?? current.regimenesFiscales,
      tipoPersona,
    );
  }
  if (patch.validaciones_habilitadas !== undefined) {
    changes.validacionesHabilitadas = {
      ...current.validacionesHabilitadas,
      ...patch.validaciones_habilitadas,
    };
  }
  const newRfc = changes.rfc !== undefined && changes.rfc !== current.rfc ? changes.rfc : null;
  let row: Awaited<ReturnType<typeof saveProfile>>;
  try {
    row = await ctx.db.transaction(async (tx) => {
      if (newRfc && (await lockProfileHoldingCfdi(tx, current.id)))
        throw conflict(
          `This profile holds CFDI issued to or by ${current.rfc}, so its RFC cannot change; create a new profile for ${newRfc}`,
          'rfc_locked',
        );
      return saveProfile(tx, current.id, changes);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(`You already have a profile with RFC ${changes.rfc}`, 'rfc_taken');
    throw err;
  }
  if (!row) throw new Error(`profile ${current.id} vanished during update`);
  await audit(ctx, 'profile.update', userId, {
    entity: 'profile',
    entityId: current.id,
    data: { fields: Object.keys(changes) },
  });
  return toProfile(row);
}
