import { MAX_CFDI_BYTES } from '@folio/cfdi';
import { z } from 'zod';
import { ImportReport } from '../../schemas/import-report';
import { MetadataReport } from '../../schemas/sat-metadata';
import type { FileEntry } from './entry';

const ImportAnswer = z.object({ message: z.string(), data: ImportReport }).meta({
  example: {
    message: '1 imported, 0 duplicate, 1 rejected',
    data: {
      imported: 1,
      duplicates: 0,
      rejected: 1,
      files: [
        {
          name: 'enero/6D7434A6.xml',
          status: 'imported',
          kind: 'invoice',
          tipo: 'PPD',
          uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
          id: 'a935b1cb-4fb6-44a9-9568-fe63acf05ff1',
        },
        {
          name: 'enero/borrador.xml',
          status: 'rejected',
          error: 'CFDI sin timbre (no TimbreFiscalDigital UUID)',
        },
      ],
    },
  },
});

const importAnswers = {
  201: { description: 'Imported', content: { 'application/json': { schema: ImportAnswer } } },
};
/** The per-document limit, as the descriptions say it. */
const XML_MB = `${MAX_CFDI_BYTES / (1024 * 1024)} MB`;

const importMeta = {
  successStatus: 201,
  alsoOk: 'Nothing new (duplicates or refusals only)',
  quota: true,
} as const;

const ProfilePath = z.object({ profileId: z.string().meta({ description: 'The profile to import into' }) });

/** Files in: CFDI documents and SAT's metadata files, read by apps/api's upload handlers. */
export const uploadRoutes: FileEntry[] = [
  {
    method: 'POST',
    path: '/profiles/{profileId}/cfdi',
    handler: 'cfdiUpload',
    upload: true,
    rest: importMeta,
    docs: {
      operationId: 'cfdi-upload',
      tags: ['cfdi'],
      summary: 'Import CFDI files: many .xml/.zip files as multipart `files`',
      description:
        'Each file is stored in its own transaction; the answer reports every file. Limits: ' +
        `${XML_MB} per XML, 50 MB and 5,000 entries per ZIP (413). 201 when anything was imported, ` +
        '200 otherwise. ' +
        'This route also takes one document sent as `application/xml`, as POST …/cfdi/xml does.',
      requestParams: { path: ProfilePath },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              files: z.array(z.string().meta({ format: 'binary' })).meta({
                description: 'CFDI .xml documents and .zip archives of them',
              }),
            }),
          },
        },
      },
      responses: importAnswers,
    },
    errors: [400, 401, 403, 404, 413, 415, 429, 500],
  },
  {
    method: 'POST',
    path: '/profiles/{profileId}/cfdi/xml',
    handler: 'cfdiUploadXml',
    upload: true,
    rest: importMeta,
    docs: {
      operationId: 'cfdi-upload-xml',
      tags: ['cfdi'],
      summary: 'Import one CFDI XML document sent as the raw body',
      description:
        'The body is the document itself, byte for byte (not JSON), whatever its Content-Type; at ' +
        `most ${XML_MB} (413).` +
        ' 201 when imported, 200 when the profile already has it; a refused document ' +
        'answers 400 with the reason (429 past the monthly quota).',
      requestParams: { path: ProfilePath },
      requestBody: {
        required: true,
        content: {
          'application/xml': {
            schema: z.string().meta({ format: 'binary', description: 'one CFDI 4.0 or 3.3 document' }),
          },
        },
      },
      responses: importAnswers,
    },
    errors: [400, 401, 403, 404, 413, 429, 500],
  },
  {
    method: 'POST',
    path: '/profiles/{profileId}/sat-metadata',
    handler: 'satMetadataUpload',
    upload: true,
    docs: {
      operationId: 'sat-metadata-upload',
      tags: ['profiles'],
      summary:
        "Read SAT's metadata files: each listed CFDI's status (vigente/cancelado), and the XML Folio lacks",
      description:
        "SAT's metadata files as the portal and the mass-download service hand them out: `.txt` (`~`-separated, " +
        'CRLF records, a header naming the columns; only Uuid, Estatus and FechaCancelacion are required, ' +
        '`PacCertifico` is read as `RfcPac`) or `.zip` archives of them (the `_tercero.txt` file is left out), ' +
        'as multipart `files`, or one file as a `text/plain` body. Each line answers: `updated` (a stored ' +
        'CFDI took the status, with `estatus_fuente: "metadata"`), `unchanged`, `missing_xml` (no CFDI of ' +
        'the profile has the UUID: listed by GET …/sat-metadata/missing, and given its status when ' +
        "imported) or `invalid`. SAT's cancelado is final: a later file saying 1 does not revert it. The " +
        'same limits as a CFDI upload (120 MB body, 50 MB and 5,000 entries per ZIP, 100 MB unzipped: ' +
        '413); a frozen profile answers 403. Stores no CFDI, so it takes none of the monthly CFDI quota.',
      requestParams: { path: ProfilePath },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              files: z.array(z.string().meta({ format: 'binary' })).meta({
                description: 'SAT metadata .txt files and .zip archives of them',
              }),
            }),
          },
          'text/plain': { schema: z.string().meta({ description: 'one metadata file' }) },
        },
      },
      responses: {
        200: {
          description: 'What each line did',
          content: {
            'application/json': {
              schema: z.object({ message: z.string(), data: MetadataReport }).meta({
                example: {
                  message: '1 updated, 0 unchanged, 1 missing XML, 0 invalid',
                  data: {
                    updated: 1,
                    unchanged: 0,
                    missing_xml: 1,
                    invalid: 0,
                    files: [
                      {
                        name: 'metadata.txt',
                        lines: [
                          {
                            line: 2,
                            uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
                            status: 'updated',
                            estatus_sat: 'cancelado',
                          },
                          {
                            line: 3,
                            uuid: 'A1B2C3D4-E3F2-47AD-9E4C-08849946AFA1',
                            status: 'missing_xml',
                            estatus_sat: 'vigente',
                          },
                        ],
                      },
                    ],
                  },
                },
              }),
            },
          },
        },
      },
    },
    errors: [400, 401, 403, 404, 413, 415, 500],
  },
];
