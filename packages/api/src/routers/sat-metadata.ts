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
    .meta({
      openapi: {
        method: 'GET',
        path: '/profiles/{profileId}/sat-metadata/missing',
        tags: ['profiles'],
        summary: "CFDI SAT's metadata lists for the profile whose XML Folio lacks",
        description:
          'Every line of the uploaded metadata files (POST …/sat-metadata) whose UUID no CFDI of the profile has, emitted in the month (`año` and `mes`), the year (`año`) or ever, oldest first: download their XML from SAT and import them. Columns the file did not carry are null.',
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(z.object({ profileId: z.string().min(1).max(100), ...MissingQuery }))
    .output(z.object({ data: z.array(MissingXml) }))
    .query(async ({ ctx, input }) => ({
      data: await listMissingXml(ctx, ctx.user.id, input.profileId, input),
    })),
});
