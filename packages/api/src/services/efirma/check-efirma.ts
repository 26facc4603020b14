import { Certificate, PrivateKey } from '@nodecfdi/credentials/node';
import { invalidField } from '../../errors';

// The checks an e.firma passes before it is stored (integrations.md §1), each on its own so the
// refusal says which: a certificate that cannot be read, a CSD (sello) instead of an e.firma, another
// RFC, outside its validity, a password that does not open the key, a key of another certificate.
// The library's own messages are never passed on: they may quote the input.

export interface EfirmaFiles {
  /** The .cer (DER, or PEM). */
  cer: Uint8Array;
  /** The .key (encrypted PKCS#8 DER, as SAT issues it, or PEM). */
  key: Uint8Array;
  password: string;
}

export interface EfirmaFacts {
  rfc: string;
  /** SAT's certificate number: the serial number's bytes read as text (20 digits). */
  numeroCertificado: string;
  validoDesde: Date;
  validoHasta: Date;
}

/** The library reads files as binary strings (one char per byte). */
const binary = (bytes: Uint8Array) => Buffer.from(bytes).toString('binary');

export function readCertificate(cer: Uint8Array): Certificate {
  try {
    return new Certificate(binary(cer));
  } catch {
    throw invalidField(
      'cer',
      'The certificate (.cer) is not an X.509 certificate',
      'efirma_certificate_unreadable',
    );
  }
}

export function certificateFacts(certificate: Certificate): EfirmaFacts {
  const serial = certificate.serialNumber();
  return {
    rfc: certificate.rfc().toUpperCase(),
    numeroCertificado: serial.bytesArePrintable() ? serial.bytes() : serial.decimal(),
    validoDesde: certificate.validFrom(),
    validoHasta: certificate.validTo(),
  };
}

/** Runs every check in order and answers the certificate's facts; throws the first refusal. */
export function checkEfirma(files: EfirmaFiles, profileRfc: string, now: Date): EfirmaFacts {
  const certificate = readCertificate(files.cer);
  if (!certificate.satType().isFiel()) {
    throw invalidField(
      'cer',
      'This certificate is a CSD (sello digital), not an e.firma: SAT accepts only the e.firma for downloads',
      'efirma_not_fiel',
    );
  }
  const facts = certificateFacts(certificate);
  if (facts.rfc !== profileRfc.toUpperCase()) {
    throw invalidField(
      'cer',
      `This e.firma belongs to ${facts.rfc}, not to the profile's RFC ${profileRfc}`,
      'efirma_rfc_mismatch',
    );
  }
  if (now < facts.validoDesde) {
    throw invalidField(
      'cer',
      `This e.firma is valid from ${facts.validoDesde.toISOString()}`,
      'efirma_not_yet_valid',
    );
  }
  if (now > facts.validoHasta) {
    throw invalidField(
      'cer',
      `This e.firma expired on ${facts.validoHasta.toISOString()}; renew it with SAT`,
      'efirma_expired',
    );
  }
  let privateKey: PrivateKey;
  try {
    privateKey = new PrivateKey(binary(files.key), files.password);
  } catch {
    throw invalidField(
      'password',
      'The private key (.key) does not open with this password',
      'efirma_password_wrong',
    );
  }
  if (!privateKey.belongsTo(certificate)) {
    throw invalidField(
      'key',
      'The private key (.key) is not the key of this certificate',
      'efirma_key_mismatch',
    );
  }
  return facts;
}
