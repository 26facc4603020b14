// parseCfdi: upload → typed Cfdi, or the reason it is refused. Order of checks: input (size,
// encoding, junk) → well-formed XML without DTD → supported root and version → timbre → fields.

import { documentWarnings } from './document-warnings';
import { readImpuestos } from './impuestos';
import { NS } from './namespaces';
import { readNomina } from './nomina';
import { readPagos } from './pagos';
import { CfdiRejection, type RejectionCode } from './rejection';
import { normalizeRfc } from './rfc';
import type { Cfdi, CfdiVersion, Concepto, ParseResult, TipoDeComprobante } from './types';
import { toXmlText } from './xml-input';
import {
  child,
  children,
  decimal,
  fechaH,
  grandchildren,
  MAX_NAME,
  optional,
  optionalDecimal,
  required,
  requiredChild,
  uuid as uuidAttr,
} from './xml-read';
import { parseXmlTree, type XmlElement } from './xml-tree';

const TIPOS: ReadonlySet<string> = new Set<TipoDeComprobante>(['I', 'E', 'T', 'N', 'P']);

export function parseCfdi(input: string | Uint8Array): ParseResult {
  const parsed = parseCfdiWith(input, () => undefined);
  return parsed.ok ? { ok: true, cfdi: parsed.cfdi } : parsed;
}

/**
 * parseCfdi, plus `more(root, cfdi)` read from the same tree in the same pass (the printed
 * representation reads attributes the typed Cfdi leaves out). A rejection from `more` is the
 * document's too.
 */
export function parseCfdiWith<T>(
  input: string | Uint8Array,
  more: (root: XmlElement, cfdi: Cfdi) => T,
): { ok: true; cfdi: Cfdi; more: T } | { ok: false; reason: string; code: RejectionCode } {
  try {
    const { text, repairs } = toXmlText(input);
    const root = parseXmlTree(text);
    const cfdi = readComprobante(root, repairs);
    return { ok: true, cfdi, more: more(root, cfdi) };
  } catch (err) {
    if (err instanceof CfdiRejection) return { ok: false, reason: err.message, code: err.code };
    throw err;
  }
}

function readComprobante(root: XmlElement, repairs: string[]): Cfdi {
  const version = versionOf(root);
  const ns = version === '4.0' ? NS.cfdi40 : NS.cfdi33;
  const complementos = children(root, ns, 'Complemento');
  const timbre = timbreIn(complementos);
  if (!timbre?.attrs.UUID)
    throw new CfdiRejection('CFDI sin timbre (no TimbreFiscalDigital UUID)', 'unstamped');
  const uuid = uuidAttr(timbre, 'UUID');

  const fecha = fechaH(root, 'Fecha');
  const tipoDeComprobante = required(root, 'TipoDeComprobante');
  if (!TIPOS.has(tipoDeComprobante)) {
    throw new CfdiRejection(`TipoDeComprobante no válido: "${tipoDeComprobante}"`);
  }
  const warnings = [...repairs];
  const metodoPago = optional(root, 'MetodoPago');
  if (metodoPago !== undefined && metodoPago !== 'PUE' && metodoPago !== 'PPD') {
    warnings.push(`MetodoPago desconocido: "${metodoPago}"`);
  }
  const emisor = requiredChild(root, ns, 'Emisor');
  const receptor = requiredChild(root, ns, 'Receptor');
  const conceptos = grandchildren(root, ns, 'Conceptos', 'Concepto');
  const taxes = readImpuestos(root, ns, conceptos, complementos);
  const pagos = tipoDeComprobante === 'P' ? readPagos(complementos, warnings) : undefined;
  if (tipoDeComprobante === 'P' && !pagos) warnings.push('CFDI de pago sin complemento Pagos');

  // Built field by field in the order below (which is also the order of the checks that can refuse
  // the file); optional fields are left out, never undefined. No object spreads: they cost more
  // than the rest of this function.
  const cfdi = {
    version,
    uuid,
    fechaTimbrado: fechaH(timbre, 'FechaTimbrado'),
    fecha,
    // From the date text (already t_FechaH), never through Date/UTC.
    año: Number(fecha.slice(0, 4)),
    mes: Number(fecha.slice(5, 7)),
  } as Cfdi;
  put(cfdi, 'serie', optional(root, 'Serie'));
  put(cfdi, 'folio', optional(root, 'Folio'));
  cfdi.tipoDeComprobante = tipoDeComprobante as TipoDeComprobante;
  if (metodoPago === 'PUE' || metodoPago === 'PPD') cfdi.metodoPago = metodoPago;
  put(cfdi, 'formaPago', optional(root, 'FormaPago'));
  cfdi.moneda = required(root, 'Moneda');
  put(cfdi, 'tipoCambio', optionalDecimal(root, 'TipoCambio'));
  cfdi.subTotal = decimal(root, 'SubTotal');
  put(cfdi, 'descuento', optionalDecimal(root, 'Descuento'));
  cfdi.total = decimal(root, 'Total');
  cfdi.emisor = {
    rfc: rfcOf(emisor),
    nombre: optional(emisor, 'Nombre', MAX_NAME) ?? '',
    regimenFiscal: required(emisor, 'RegimenFiscal'),
  };
  cfdi.receptor = { rfc: rfcOf(receptor), nombre: optional(receptor, 'Nombre', MAX_NAME) ?? '' };
  put(cfdi.receptor, 'regimenFiscal', optional(receptor, 'RegimenFiscalReceptor'));
  put(cfdi.receptor, 'domicilioFiscal', optional(receptor, 'DomicilioFiscalReceptor'));
  put(cfdi.receptor, 'usoCfdi', optional(receptor, 'UsoCFDI'));
  put(cfdi, 'lugarExpedicion', optional(root, 'LugarExpedicion'));
  cfdi.conceptos = conceptos.map((c) => readConcepto(c, ns));
  cfdi.impuestos = taxes.impuestos;
  cfdi.relacionados = children(root, ns, 'CfdiRelacionados').map((block) => ({
    tipoRelacion: required(block, 'TipoRelacion', 2),
    uuids: children(block, ns, 'CfdiRelacionado').map((r) => uuidAttr(r, 'UUID')),
  }));
  put(cfdi, 'pagos', pagos);
  put(cfdi, 'nomina', readNomina(complementos, warnings));
  warnings.push(...documentWarnings(cfdi, taxes));
  cfdi.warnings = warnings;
  return cfdi;
}

/** Sets an optional field only when it has a value. */
function put<T, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/** The TimbreFiscalDigital: 3.3 allowed several Complemento nodes, 4.0 has one; search them all. */
export function timbreOf(root: XmlElement, ns: string): XmlElement | undefined {
  return timbreIn(children(root, ns, 'Complemento'));
}

function timbreIn(complementos: XmlElement[]): XmlElement | undefined {
  for (const c of complementos) {
    const timbre = child(c, NS.tfd, 'TimbreFiscalDigital');
    if (timbre) return timbre;
  }
  return undefined;
}

// By namespace + local name + Version, never by prefix (docs/cfdi.md#reading-a-document).
function versionOf(root: XmlElement): CfdiVersion {
  if (root.name === 'Comprobante' && (root.ns === NS.cfdi40 || root.ns === NS.cfdi33)) {
    // CFDI 3.2 spelled its attributes in lower case.
    const version = root.attrs.Version ?? root.attrs.version;
    if (version === '4.0' && root.ns === NS.cfdi40) return '4.0';
    if (version === '3.3' && root.ns === NS.cfdi33) return '3.3';
    throw new CfdiRejection(
      `versión no soportada: ${version ?? '(sin atributo Version)'}`,
      'version_unsupported',
    );
  }
  if (root.name === 'Retenciones') {
    throw new CfdiRejection(
      `versión no soportada: CFDI de retenciones e información de pagos (${root.ns})`,
      'version_unsupported',
    );
  }
  const where = root.ns ? ` en ${root.ns}` : ' sin espacio de nombres';
  throw new CfdiRejection(
    `versión no soportada: no es un CFDI (elemento raíz ${root.name}${where})`,
    'version_unsupported',
  );
}

// An RFC has 12 or 13 characters; a malformed one is only a warning, but never an unbounded one.
const rfcOf = (party: XmlElement) => normalizeRfc(optional(party, 'Rfc', 13) ?? '');

function readConcepto(c: XmlElement, ns: string): Concepto {
  const concepto: Concepto = {
    claveProdServ: required(c, 'ClaveProdServ'),
    descripcion: required(c, 'Descripcion'),
    cantidad: decimal(c, 'Cantidad'),
    valorUnitario: decimal(c, 'ValorUnitario'),
    importe: decimal(c, 'Importe'),
    ivaTrasladado: 0,
    trasladaIva: false,
  };
  put(concepto, 'descuento', optionalDecimal(c, 'Descuento'));
  put(concepto, 'objetoImp', optional(c, 'ObjetoImp', 2));
  const impuestos = child(c, ns, 'Impuestos');
  if (impuestos) {
    for (const t of grandchildren(impuestos, ns, 'Traslados', 'Traslado')) {
      if (t.attrs.Impuesto !== '002') continue;
      concepto.trasladaIva = true;
      concepto.ivaTrasladado += optionalDecimal(t, 'Importe') ?? 0;
    }
    concepto.ivaTrasladado = Math.round(concepto.ivaTrasladado * 1e6) / 1e6;
  }
  return concepto;
}
