import { z } from 'zod';
import { Profile, ProfileFields } from '../schemas/profile';
import { Message } from '../schemas/user';
import { authorizeProfile, listUserProfiles } from '../services/profiles/access';
import { createProfile } from '../services/profiles/create-profile';
import { deleteProfile } from '../services/profiles/delete-profile';
import { toProfile } from '../services/profiles/profile-dto';
import { fixIvaProporcion5b, recordPagoProvisional } from '../services/profiles/tax-settings';
import { updateProfile } from '../services/profiles/update-profile';
import { authedProcedure, type RestMeta, router } from '../trpc';

const tags = ['profiles'];
// The contract answers profile input errors with 422; an invalid RFC is a 400 from the service.
const rest: RestMeta = { inputErrorStatus: 422 };
const ProfileId = z.object({ profileId: z.string().min(1).max(100) });
const Data = z.object({ message: z.string(), data: Profile });
const Año = z.coerce.number().int().min(2000).max(2100);

export const profilesRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/profiles',
        tags,
        summary: 'Your profiles',
        description: 'Every taxpayer profile of the caller, frozen ones included (readable, not writable).',
        errorResponses: [401, 500],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(Profile) }))
    .query(async ({ ctx }) => ({ data: await listUserProfiles(ctx, ctx.user.id) })),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/profiles/{profileId}',
        tags,
        summary: 'One profile',
        description: 'One profile of the caller: RFC, person type, fiscal regimes and validation flags.',
        errorResponses: [401, 403, 404, 500],
      },
    })
    .input(ProfileId)
    .output(z.object({ data: Profile }))
    .query(async ({ ctx, input }) => ({
      data: toProfile(await authorizeProfile(ctx, ctx.user.id, input.profileId, 'read')),
    })),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/profiles',
        tags,
        summary: 'Create a taxpayer profile',
        description:
          "Adds a taxpayer (one RFC) checked by the RFC rules (pattern, real date, no generic RFC, length by person type) with regimes from c_RegimenFiscal. Past the plan's profile limit it answers 403; an RFC the caller already has, 409.",
        errorResponses: [400, 401, 403, 409, 422, 500],
      },
      rest: { ...rest, successStatus: 201 },
    })
    .input(ProfileFields)
    .output(Data)
    .mutation(async ({ ctx, input }) => ({
      message: 'Profile created',
      data: await createProfile(ctx, ctx.user.id, input),
    })),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/profiles/{profileId}',
        tags,
        summary: 'Update the supplied fields of a profile',
        description:
          'Changes only the fields sent; validation flags merge into the current ones. A frozen profile answers 403. ' +
          'The RFC of a profile holding CFDI cannot change (409 `rfc_locked`): create a new profile for the other RFC.',
        errorResponses: [400, 401, 403, 404, 409, 422, 500],
      },
      rest,
    })
    .input(ProfileFields.partial().extend(ProfileId.shape))
    .output(Data)
    .mutation(async ({ ctx, input: { profileId, ...patch } }) => ({
      message: 'Profile updated',
      data: await updateProfile(ctx, ctx.user.id, profileId, patch),
    })),

  delete: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'DELETE',
        path: '/profiles/{profileId}',
        tags,
        summary: 'Delete a profile and everything filed under it',
        description: 'Deletes the profile with its invoices, expenses and periods. This cannot be undone.',
        errorResponses: [401, 403, 404, 500],
      },
    })
    .input(ProfileId)
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await deleteProfile(ctx, ctx.user.id, input.profileId);
      return { message: 'Profile deleted' };
    }),

  setIvaProporcion5b: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/profiles/{profileId}/iva-proporcion-5b',
        tags,
        summary: "Fix the previous year's IVA proportion for a year (LIVA 5-B)",
        description:
          "The monthly reports of `año` credit IVA of expenses used for taxed and exempt acts at this percentage (2 decimals) instead of each month's own proportion (LIVA 5-V). By law the choice binds the taxpayer for 60 months. A frozen profile answers 403.",
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
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
    .meta({
      openapi: {
        method: 'PUT',
        path: '/profiles/{profileId}/pagos-provisionales/{anio}/{mes}',
        tags,
        summary: 'Record the ISR actually paid for a RESICO month (LISR 113-E)',
        description:
          "The annual RESICO computation (LISR 113-F, `resico_anual` of the annual report) subtracts this amount for the month instead of the month's computed `isr_a_pagar`. A frozen profile answers 403.",
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
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
