import { REJECTION_CODES } from '@folio/cfdi';
import { z } from 'zod';
import { Tipo } from './invoice';

/** What became of one uploaded file. */
export const FileReport = z.object({
  name: z.string(),
  status: z.enum(['imported', 'duplicate', 'rejected']),
  kind: z.enum(['invoice', 'expense']).optional(),
  tipo: Tipo.optional(),
  uuid: z.string().optional(),
  id: z.string().optional(),
  error: z.string().optional().describe('Why a file was rejected, in Spanish (the `motivo`)'),
  code: z
    .enum(REJECTION_CODES)
    .optional()
    .describe('Why a file was rejected, for programs (docs/errors.md, import file codes)'),
});
export type FileReport = z.infer<typeof FileReport>;

/** The answer of an import (tRPC `cfdi.import` and the REST upload): counts and one line per file. */
export const ImportReport = z
  .object({
    imported: z.number(),
    duplicates: z.number(),
    rejected: z.number(),
    files: z.array(FileReport),
  })
  .meta({ id: 'ImportReport' });
export type ImportReport = z.infer<typeof ImportReport>;
