import { generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';
import forge from 'node-forge';

// The simulator's test e.firmas (POST /__dev/sat/efirma): what SAT issues, in the shape
// @nodecfdi/credentials reads — a DER certificate whose subject carries the RFC in
// x500UniqueIdentifier (2.5.4.45) and no OU (an OU, the branch, is what makes a CSD), a 20-digit
// certificate number as the serial's bytes, and the key as encrypted PKCS#8 DER. Signed by the
// simulator's own authority, so nothing it issues passes for a real one.

export interface TestEfirma {
  /** base64 of the DER certificate. */
  cer: string;
  /** base64 of the encrypted PKCS#8 DER key. */
  key: string;
  password: string;
  numeroCertificado: string;
}

const YEAR_MS = 365 * 86_400_000;

let authority: { key: forge.pki.rsa.PrivateKey; subject: forge.pki.CertificateField[] } | undefined;

function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    node: privateKey,
    forgeKey: forge.pki.privateKeyFromPem(
      privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    ) as forge.pki.rsa.PrivateKey,
    forgePublic: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }) as string),
  };
}

function simulatorAuthority() {
  authority ??= {
    key: rsaPair().forgeKey,
    subject: [
      { name: 'commonName', value: 'AC del Simulador SAT de Folio (pruebas)' },
      { name: 'organizationName', value: 'Folio (desarrollo)' },
      { name: 'countryName', value: 'MX' },
    ],
  };
  return authority;
}

/**
 * A FIEL for `rfc`, valid from `desde` for four years (SAT's term), or a CSD with `csd` (a branch
 * OU): the refusal tests need one.
 */
export function issueTestEfirma(
  rfc: string,
  opts: { desde?: Date; hasta?: Date; csd?: boolean; password?: string } = {},
): TestEfirma {
  const ca = simulatorAuthority();
  const pair = rsaPair();
  const password = opts.password ?? randomBytes(9).toString('base64url');
  const numeroCertificado = `30001000000${String(randomInt(0, 1e9)).padStart(9, '0')}`;
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.forgePublic;
  cert.serialNumber = Buffer.from(numeroCertificado, 'ascii').toString('hex');
  const desde = opts.desde ?? new Date(Date.now() - 86_400_000);
  cert.validity.notBefore = desde;
  cert.validity.notAfter = opts.hasta ?? new Date(desde.getTime() + 4 * YEAR_MS);
  const nombre = `CONTRIBUYENTE DE PRUEBA ${rfc}`;
  cert.setSubject([
    { name: 'commonName', value: nombre },
    { type: '2.5.4.41', value: nombre },
    { name: 'organizationName', value: nombre },
    { name: 'countryName', value: 'MX' },
    { type: '2.5.4.45', value: rfc },
    ...(opts.csd ? [{ name: 'organizationalUnitName', value: 'Sucursal de prueba' }] : []),
  ]);
  cert.setIssuer(ca.subject);
  cert.sign(ca.key, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  const key = pair.node.export({
    type: 'pkcs8',
    format: 'der',
    cipher: 'des-ede3-cbc',
    passphrase: password,
  });
  return { cer: der.toString('base64'), key: key.toString('base64'), password, numeroCertificado };
}
