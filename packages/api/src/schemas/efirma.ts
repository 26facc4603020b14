import { z } from 'zod';
import { Timestamp } from './formats';

/**
 * The consent the upload records, by version: what the taxpayer agrees to. A new wording gets a new
 * version; stored consents keep the version they were given under.
 */
export const CONSENT_VERSION = '2026-11-v1';
export const CONSENT_TEXT =
  'Autorizo a Folio a guardar mi e.firma cifrada y a usarla solo para descargar mis CFDI y sus metadatos del SAT y consultar su estado. Puedo borrarla en cualquier momento.';

/** The largest .cer or .key taken: SAT's are about 2 KB; 64 KB leaves room for PEM and long chains. */
export const MAX_EFIRMA_FILE_BYTES = 64 * 1024;

const base64Of = (name: string) =>
  z
    .string()
    .max(
      Math.ceil(MAX_EFIRMA_FILE_BYTES / 3) * 4,
      `${name} may hold at most ${MAX_EFIRMA_FILE_BYTES / 1024} KB`,
    )
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${name} is the file's bytes in base64`)
    .transform((s) => new Uint8Array(Buffer.from(s, 'base64')));

export const ConsentDescription = `Must be true: the taxpayer agrees to this text (version ${CONSENT_VERSION}): "${CONSENT_TEXT}"`;

/** tRPC's `efirma.store` (the SDK and CLI send it over REST as multipart): the files in base64. */
export const EfirmaStoreInput = z.object({
  profileId: z.string().min(1).max(100),
  cer: base64Of('cer').meta({ description: 'The e.firma certificate (.cer), base64' }),
  key: base64Of('key').meta({ description: 'The e.firma private key (.key, encrypted PKCS#8), base64' }),
  password: z.string().min(1).max(200).meta({ description: "The key's password (never stored in clear)" }),
  consentimiento: z.boolean().meta({ description: ConsentDescription }),
});

/** What GET and PUT answer: the certificate's public facts and the recorded consent. */
export const EfirmaMetadata = z
  .object({
    rfc: z.string(),
    numero_certificado: z.string().meta({ description: "SAT's certificate number (20 digits)" }),
    valido_desde: Timestamp,
    valido_hasta: Timestamp,
    consentimiento: z.object({
      version: z.string().meta({ description: 'The version of the consent text agreed to' }),
      fecha: Timestamp,
      ip: z.string().nullable().meta({ description: 'The address the consent came from' }),
    }),
  })
  .meta({
    id: 'EfirmaMetadata',
    example: {
      rfc: 'EKU9003173C9',
      numero_certificado: '30001000000500003416',
      valido_desde: '2023-05-18T11:43:51.000Z',
      valido_hasta: '2027-05-18T11:43:51.000Z',
      consentimiento: { version: CONSENT_VERSION, fecha: '2026-11-25T18:00:00.000Z', ip: '203.0.113.7' },
    },
  });
