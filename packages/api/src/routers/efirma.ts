import { z } from 'zod';
import { EfirmaMetadata, EfirmaStoreInput } from '../schemas/efirma';
import { Message } from '../schemas/user';
import { readEfirma, removeEfirma, storeEfirma } from '../services/efirma/store-efirma';
import { authedProcedure, router } from '../trpc';

// A profile's stored e.firma (integrations.md §1, docs/sat-sync.md#efirma). Session only: an API key
// may not read, replace or delete it. REST's PUT takes the files as multipart (apps/api's efirmaUpload).

const ProfileId = z.object({ profileId: z.string().min(1).max(100) });
const Data = z.object({ data: EfirmaMetadata });

export const efirmaRouter = router({
  store: authedProcedure
    .meta({ sessionOnly: true })
    .input(EfirmaStoreInput)
    .output(Data)
    .mutation(async ({ ctx, input: { profileId, ...upload } }) => ({
      data: await storeEfirma(ctx, ctx.principal, profileId, upload),
    })),

  get: authedProcedure
    .meta({ sessionOnly: true })
    .input(ProfileId)
    .output(Data)
    .query(async ({ ctx, input }) => ({ data: await readEfirma(ctx, ctx.principal, input.profileId) })),

  delete: authedProcedure
    .meta({ sessionOnly: true })
    .input(ProfileId)
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await removeEfirma(ctx, ctx.principal, input.profileId);
      return { message: 'e.firma deleted' };
    }),
});
