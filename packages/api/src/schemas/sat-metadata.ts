import { z } from 'zod';
import { IsoDate } from './dates';
import { Año, Mes } from './pagination';

/** The body of PATCH /invoices/{id} and /expenses/{id}: the user's word on a CFDI's SAT status. */
export const SatStatusMarkFields = {
  estatus_sat: z.enum(['cancelado', 'vigente']),
  fecha_cancelacion: z
    .string()
    .trim()
    .regex(
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/,
      'must be YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss (Mexico local time)',
    )
    .refine((s) => IsoDate.safeParse(s).success, 'is not a real calendar date')
    .optional()
    .meta({ description: 'When it was cancelled (Mexico local time); required with cancelado' }),
};

/** What became of one record of a metadata file. */
export const MetadataLineReport = z.object({
  line: z.number().describe('The line of the file the record starts on (the header is line 1)'),
  uuid: z.string().optional(),
  status: z
    .enum(['updated', 'unchanged', 'missing_xml', 'invalid'])
    .describe(
      'updated: a stored CFDI took the status; unchanged: it already had it (or SAT had reported it cancelado, which is final); missing_xml: no CFDI of the profile has this UUID (listed by GET …/sat-metadata/missing); invalid: the line was not read',
    ),
  estatus_sat: z.enum(['vigente', 'cancelado']).optional(),
  detail: z.string().optional().describe('Why a line is invalid, or why a status was kept'),
});

export const MetadataFileReport = z.object({
  name: z.string(),
  error: z.string().optional().describe('Why the whole file was not read (then it has no lines)'),
  skipped: z.string().optional().describe('Why a file was left out (the `_tercero` file of a ZIP)'),
  lines: z.array(MetadataLineReport),
});

export const MetadataReport = z
  .object({
    updated: z.number(),
    unchanged: z.number(),
    missing_xml: z.number(),
    invalid: z.number(),
    files: z.array(MetadataFileReport),
  })
  .meta({ id: 'SatMetadataReport' });
export type MetadataReport = z.infer<typeof MetadataReport>;
export type MetadataFileReport = z.infer<typeof MetadataFileReport>;
export type MetadataLineReport = z.infer<typeof MetadataLineReport>;

export const MissingXml = z
  .object({
    uuid: z.string(),
    rfc_emisor: z.string().nullable(),
    nombre_emisor: z.string().nullable(),
    rfc_receptor: z.string().nullable(),
    nombre_receptor: z.string().nullable(),
    fecha: z.string().nullable().describe('FechaEmision (Mexico local time)'),
    monto: z.number().nullable(),
    efecto: z.string().nullable().describe('EfectoComprobante: I, E, P, T or N'),
    estatus: z.enum(['vigente', 'cancelado']),
    fecha_cancelacion: z.string().nullable(),
  })
  .meta({ id: 'MissingXml' });

export const MissingQuery = { año: Año.optional(), mes: Mes.optional() };
