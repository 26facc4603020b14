import { z } from 'zod';
import { ImportReport } from '../schemas/import-report';
import { importCfdiFiles } from '../services/cfdi/import';
import { authedProcedure, router } from '../trpc';

// REST clients upload files to POST /api/profiles/{profileId}/cfdi (XML or multipart, in apps/api);
// TypeScript clients send the XML text here.
export const cfdiRouter = router({
  import: authedProcedure
    .input(
      z.object({
        profileId: z.string().min(1).max(100),
        files: z
          .array(
            z.object({
              name: z.string().min(1).max(255),
              // No size bound here: a document over 5 MB is rejected on its own when parsed (a line of
              // the report, as in a REST upload), and the request body's 60 MB bounds them all.
              content: z.string(),
            }),
          )
          .min(1)
          .max(500),
      }),
    )
    .output(z.object({ message: z.string(), data: ImportReport }))
    .mutation(async ({ ctx, input }) => {
      const data = await importCfdiFiles(ctx, ctx.user.id, input.profileId, input.files);
      return {
        message: `${data.imported} imported, ${data.duplicates} duplicate, ${data.rejected} rejected`,
        data,
      };
    }),
});
