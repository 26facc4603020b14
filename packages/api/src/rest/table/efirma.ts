import { z } from 'zod';
import { ConsentDescription, EfirmaMetadata, MAX_EFIRMA_FILE_BYTES } from '../../schemas/efirma';
import type { RouteEntry } from './entry';

const tags = ['sat-sync'];
const KB = `${MAX_EFIRMA_FILE_BYTES / 1024} KB`;
const SESSION_ONLY =
  'Session only: an API key gets 403 `session_required`. BASIC and PRO (FREE: 403 naming BASIC).';

/** A profile's stored e.firma (docs/sat-sync.md#efirma): PUT takes files, GET and DELETE run procedures. */
export const efirmaRoutes: RouteEntry[] = [
  {
    method: 'PUT',
    path: '/profiles/{profileId}/efirma',
    handler: 'efirmaUpload',
    upload: true,
    sessionOnly: true,
    docs: {
      operationId: 'efirma-store',
      tags,
      summary: "Store the profile's e.firma (multipart `cer`, `key`, `password`, `consentimiento`)",
      description:
        'Checks the e.firma before storing it, each check with its own 400 `code`: a readable certificate, ' +
        "an e.firma and not a CSD, the profile's RFC, within its validity, the password opens the key, the key " +
        'is the certificate’s; and `consentimiento` must be `true`. Nothing is stored on a refusal. Stored ' +
        'encrypted, replacing the previous one; the key and password never appear in an answer or a log. ' +
        `At most ${KB} per file (413). ${SESSION_ONLY} tRPC: \`efirma.store\` with the files in base64.`,
      requestParams: {
        path: z.object({ profileId: z.string().meta({ description: 'The profile whose e.firma it is' }) }),
      },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              cer: z.string().meta({ format: 'binary', description: 'The certificate (.cer)' }),
              key: z.string().meta({ format: 'binary', description: 'The private key (.key)' }),
              password: z.string().meta({ description: "The key's password" }),
              consentimiento: z.enum(['true', 'false']).meta({ description: ConsentDescription }),
            }),
          },
        },
      },
      responses: {
        200: {
          description: 'Stored: the certificate’s facts and the recorded consent',
          content: { 'application/json': { schema: z.object({ data: EfirmaMetadata }) } },
        },
      },
    },
    errors: [400, 401, 403, 404, 413, 415, 500, 503],
  },
  {
    method: 'GET',
    path: '/profiles/{profileId}/efirma',
    procedure: 'efirma.get',
    docs: {
      tags,
      summary: "The profile's stored e.firma: certificate facts and consent",
      description: `RFC, certificate number, validity and the consent recorded with it; 404 \`efirma_not_found\` when none is stored. ${SESSION_ONLY}`,
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'DELETE',
    path: '/profiles/{profileId}/efirma',
    procedure: 'efirma.delete',
    docs: {
      tags,
      summary: "Erase the profile's stored e.firma",
      description: `Deletes the record and its wrapped key (not a flag); 404 \`efirma_not_found\` when none is stored. ${SESSION_ONLY}`,
    },
    errors: [401, 403, 404, 500],
  },
];
