import type { RouteEntry } from './entry';

/** The REST routes of SAT metadata (its upload is in uploads.ts). */
export const satMetadataRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/profiles/{profileId}/sat-metadata/missing',
    procedure: 'satMetadata.missing',
    docs: {
      tags: ['profiles'],
      summary: "CFDI SAT's metadata lists for the profile whose XML Folio lacks",
      description:
        'Every line of the uploaded metadata files (POST …/sat-metadata) whose UUID no CFDI of the profile has, emitted in the month (`año` and `mes`), the year (`año`) or ever, oldest first: download their XML from SAT and import them. Columns the file did not carry are null.',
    },
    errors: [400, 401, 403, 404, 500],
  },
];
