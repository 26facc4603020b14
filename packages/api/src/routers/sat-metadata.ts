import { z } from 'zod';
import { MetadataReport, MissingQuery, MissingXml } from '../schemas/sat-metadata';
import { importSatMetadata, metadataMessage } from '../services/sat-metadata/import-metadata';
import { listMissingXml } from '../services/sat-metadata/missing-xml';
import { authedProcedure, router } from '../trpc';

// REST clients upload SAT's metadata files to POST /api/profiles/{profileId}/sat-metadata (text or
// multipart with ZIPs, in apps/api); TypeScript clients send the files' text here.
export const satMetadataRouter = router({
  import: authedProcedure
    .input(
      z.object({
        profileId: z.string().min(1).max(100),
        files: z
          .array(z.object({ name: z.string().min(1).max(255), content: z.string().max(100 * 1024 * 1024) }))
          .min(1)
          .max(100),
      }),
    )
    .output(z.object({ message: z.string(), data: MetadataReport }))
    .mutation(async ({ ctx, input }) => {
      const data = await importSatMetadata(ctx, ctx.user.id, input.profileId, input.files);
      return { message: metadataMessage(data), data };
    }),

  missing: authedProcedure
    .input(z.object({ profileId: z.string().min(1).max(100), ...MissingQuery }))
    .output(z.object({ data: z.array(MissingXml) }))
    .query(async ({ ctx, input }) => ({
      data: await listMissingXml(ctx, ctx.user.id, input.profileId, input),
    })),
});
