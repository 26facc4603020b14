import { createHash, createVerify, X509Certificate } from 'node:crypto';
import type { Element } from '@nodecfdi/cfdi-core';
import { Certificate } from '@nodecfdi/credentials/node';
import { canonicalize } from './c14n';

// What SAT checks on a signed request (integrations.md §1), for the shape the @nodecfdi request
// builder signs: one Reference (URI "#_0" to u:Timestamp for authentication, "" to the operation
// element for the others), digested with SHA-1 over its exclusive c14n — the operation without its
// Signature, as no enveloped-signature transform is declared — and SignedInfo's c14n signed with
// RSA-SHA1 by the certificate's key. Then the certificate: a FIEL, valid now.

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/** SAT's codes for a refused signature: 302 bad seal, 304 expired or revoked, 305 invalid certificate. */
export class SignatureRefused extends Error {
  constructor(
    readonly code: 302 | 304 | 305,
    message: string,
  ) {
    super(message);
  }
}

export const childrenOf = (el: Element, local?: string): Element[] => {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (!local || (n as Element).localName === local)) out.push(n as Element);
  }
  return out;
};
export const childOf = (el: Element | undefined, local: string): Element | undefined =>
  el ? childrenOf(el, local)[0] : undefined;

const textOf = (el: Element | undefined) => (el?.textContent ?? '').replace(/\s+/g, '');

export interface SignedBy {
  rfc: string;
  /** base64 DER of the signing certificate. */
  certificate: string;
}

/**
 * Checks `signature` over `signed` (the element its Reference points to; its own Signature child is
 * left out of the digest) with the certificate `certificateB64`, or the one in KeyInfo.
 */
export function verifySignature(
  signature: Element,
  signed: Element,
  certificateB64?: string,
  now = new Date(),
): SignedBy {
  if (signature.namespaceURI !== DSIG)
    throw new SignatureRefused(302, 'Signature is not an XML-DSig signature');
  const signedInfo = childOf(signature, 'SignedInfo');
  const reference = childOf(signedInfo, 'Reference');
  if (!signedInfo || !reference) throw new SignatureRefused(302, 'Signature without SignedInfo/Reference');
  const b64 =
    certificateB64 ?? textOf(childOf(childOf(childOf(signature, 'KeyInfo'), 'X509Data'), 'X509Certificate'));
  if (!b64) throw new SignatureRefused(302, 'Signature without certificate');

  const digested = signed.cloneNode(true) as Element;
  for (const sig of childrenOf(digested, 'Signature')) digested.removeChild(sig);
  for (const inner of childrenOf(digested))
    for (const sig of childrenOf(inner, 'Signature')) inner.removeChild(sig);
  const digest = createHash('sha1').update(canonicalize(digested)).digest('base64');
  if (digest !== textOf(childOf(reference, 'DigestValue'))) {
    throw new SignatureRefused(302, 'DigestValue does not match the signed element');
  }

  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(Buffer.from(b64, 'base64'));
  } catch {
    throw new SignatureRefused(305, 'The certificate is not readable');
  }
  const ok = createVerify('RSA-SHA1')
    .update(canonicalize(signedInfo))
    .verify(x509.publicKey, Buffer.from(textOf(childOf(signature, 'SignatureValue')), 'base64'));
  if (!ok) throw new SignatureRefused(302, 'SignatureValue does not verify with the certificate');

  const certificate = new Certificate(Buffer.from(b64, 'base64').toString('binary'));
  if (!certificate.satType().isFiel())
    throw new SignatureRefused(305, 'The certificate is not an e.firma (FIEL)');
  if (now < certificate.validFrom() || now > certificate.validTo()) {
    throw new SignatureRefused(304, 'The e.firma is expired or not yet valid');
  }
  return { rfc: certificate.rfc().toUpperCase(), certificate: b64 };
}
