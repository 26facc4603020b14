import { z } from 'zod';
import { Profile, ProfileFields } from '../schemas/profile';
import { Message } from '../schemas/user';
import { authorizeProfile, listUserProfiles } from '../services/profiles/access';
import { createProfile } from '../services/profiles/create-profile';
import { deleteProfile } from '../services/profiles/delete-profile';
import { toProfile } from '../services/profiles/profile-dto';
import { fixIvaProporcion5b, recordPagoProvisional } from '../services/profiles/tax-settings';
import { updateProfile } from '../services/profiles/update-profile';
import { authedProcedure, router } from '../trpc';

const ProfileId = z.object({ profileId: z.string().min(1).max(100) });
const Data = z.object({ message: z.string(), data: Profile });
const Año = z.coerce.number().int().min(2000).max(2100);

export const profilesRouter = router({
  list: authedProcedure
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(Profile) }))
    .query(async ({ ctx }) => ({ data: await listUserProfiles(ctx, ctx.user.id) })),

  get: authedProcedure
    .input(ProfileId)
    .output(z.object({ data: Profile }))
    .query(async ({ ctx, input }) => ({
      data: toProfile(await authorizeProfile(ctx, ctx.user.id, input.profileId, 'read')),
    })),

  create: authedProcedure
    .input(ProfileFields)
    .output(Data)
    .mutation(async ({ ctx, input }) => ({
      message: 'Profile created',
      data: await createProfile(ctx, ctx.user.id, input),
    })),

  update: authedProcedure
    .input(ProfileFields.partial().extend(ProfileId.shape))
    .output(Data)
    .mutation(async ({ ctx, input: { profileId, ...patch } }) => ({
      message: 'Profile updated',
      data: await updateProfile(ctx, ctx.user.id, profileId, patch),
    })),

  delete: authedProcedure
    .meta({ sessionOnly: true })
    .input(ProfileId)
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await deleteProfile(ctx, ctx.user.id, input.profileId);
      return { message: 'Profile deleted' };
    }),

  setIvaProporcion5b: authedProcedure
    .input(
      ProfileId.extend({ año: Año, proporcion: z.number().min(0).max(100) }).meta({
        example: { año: 2025, proporcion: 87.5 },
      }),
    )
    .output(
      z.object({
        message: z.string(),
        data: z.object({ profile_id: z.string(), año: z.number(), proporcion: z.number() }),
      }),
    )
    .mutation(async ({ ctx, input: { profileId, ...body } }) => ({
      message: 'IVA proportion fixed',
      data: await fixIvaProporcion5b(ctx, ctx.user.id, profileId, body),
    })),

  setPagoProvisional: authedProcedure
    .input(
      ProfileId.extend({
        anio: Año,
        mes: z.coerce.number().int().min(1).max(12),
        isr_pagado: z.number().min(0).max(1e12),
      }).meta({ example: { isr_pagado: 1250 } }),
    )
    .output(
      z.object({
        message: z.string(),
        data: z.object({ profile_id: z.string(), año: z.number(), mes: z.number(), isr_pagado: z.number() }),
      }),
    )
    .mutation(async ({ ctx, input: { profileId, anio, ...body } }) => ({
      message: 'Provisional payment recorded',
      data: await recordPagoProvisional(ctx, ctx.user.id, profileId, { año: anio, ...body }),
    })),
});
