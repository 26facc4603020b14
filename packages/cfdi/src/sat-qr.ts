// What a printed CFDI carries so anyone can check it with the SAT: the QR's URL and the timbre's
// cadena original (Anexo 20, "Especificación técnica del código de barras bidimensional";
// docs/cfdi.md#printed-representation).

const VERIFY = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx';

/**
 * `tt` of the QR code: the Total as written, without non-significant zeros (Anexo 20: up to 18
 * integer digits, "." and 6 decimals, "se deben omitir los ceros no significativos"), keeping one
 * decimal so it still reads as an amount: "1160.00" → "1160.0", "0014300.500000" → "14300.5".
 * Done on the text, so no float error creeps in.
 */
export function qrTotal(total: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(total.trim());
  if (!match) throw new RangeError(`not a CFDI amount: "${total}"`);
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const decimals = (match[2] ?? '').slice(0, 6).replace(/0+$/, '');
  return `${whole}.${decimals || '0'}`;
}

/**
 * A query value as the SAT's page reads it: percent-encoded where a character would otherwise end
 * or change the value (`&` of an RFC, `+` of a seal, `Ñ` as UTF-8), while `/` and `=` stay literal
 * as in the Anexo's own example (`fe=rH8/bw==`): both are legal inside a query.
 */
const queryValue = (v: string) => encodeURIComponent(v).replace(/%2F/g, '/').replace(/%3D/g, '=');

export interface VerificationFacts {
  uuid: string;
  rfcEmisor: string;
  rfcReceptor: string;
  /** Comprobante@Total as written. */
  total: string;
  /** Comprobante@Sello: `fe` is its last 8 characters. */
  sello: string;
}

/** The SAT verification URL the QR code holds: id, re, rr, tt, fe in the Anexo's order. */
export function verificationUrl(f: VerificationFacts): string {
  const params: [string, string][] = [
    ['id', f.uuid],
    ['re', f.rfcEmisor],
    ['rr', f.rfcReceptor],
    ['tt', qrTotal(f.total)],
    ['fe', f.sello.slice(-8)],
  ];
  return `${VERIFY}?${params.map(([k, v]) => `${k}=${queryValue(v)}`).join('&')}`;
}

export interface Timbre {
  version: string;
  uuid: string;
  fechaTimbrado: string;
  rfcProvCertif: string;
  leyenda?: string;
  selloCFD: string;
  noCertificadoSAT: string;
  selloSAT: string;
}

/**
 * Cadena original del complemento de certificación digital del SAT, as the SAT's XSLT for
 * TimbreFiscalDigital 1.1 builds it: `||1.1|UUID|FechaTimbrado|RfcProvCertif|[Leyenda|]SelloCFD|
 * NoCertificadoSAT||`, each value with its whitespace collapsed, an absent optional one left out.
 */
export function cadenaOriginalTimbre(t: Timbre): string {
  const values = [
    t.version,
    t.uuid,
    t.fechaTimbrado,
    t.rfcProvCertif,
    t.leyenda,
    t.selloCFD,
    t.noCertificadoSAT,
  ]
    .filter((v): v is string => v !== undefined && v !== '')
    .map((v) => v.replace(/\s+/g, ' ').trim());
  return `||${values.join('|')}||`;
}
