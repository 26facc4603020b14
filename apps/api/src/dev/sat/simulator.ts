import { randomBytes, randomUUID } from 'node:crypto';
import { parseCfdi } from '@folio/cfdi';
import { type Element, getParser } from '@nodecfdi/cfdi-core';
import { strToU8, unzipSync, zipSync } from 'fflate';
import {
  downloadAnswer,
  faultAnswer,
  queryAnswer,
  statusAnswer,
  tokenAnswer,
  type VerifyFields,
  verifyAnswer,
} from './answers';
import { childOf, childrenOf, SignatureRefused, verifySignature } from './signature';
import { issueTestEfirma, type TestEfirma } from './test-efirma';

// The simulated SAT (docs/sat-sync.md#simulator): the CFDI placed on it, the tokens it issued, the
// requests and packages of the mass-download service, and the answers its control routes ask for.
// State in memory, per server process, like the dev billing provider's.

export interface HeldCfdi {
  uuid: string;
  xml: string;
  rfcEmisor: string;
  nombreEmisor: string;
  rfcReceptor: string;
  nombreReceptor: string;
  /** Comprobante@Fecha, Mexico City wall clock `YYYY-MM-DDTHH:mm:ss`. */
  fecha: string;
  fechaTimbrado: string;
  total: number;
  efecto: string;
  estatus: 'vigente' | 'cancelado';
  fechaCancelacion: string | null;
}

/** SAT's request answers `next-answer` may script, with SAT's messages. */
const REQUEST_ANSWERS = {
  '300': 'Usuario No Válido',
  '301': 'XML Mal Formado',
  '302': 'Sello Mal Formado',
  '303': 'Sello no corresponde con RfcSolicitante',
  '404': 'Error no Controlado',
  '5001': 'Tercero no autorizado',
  '5002': 'Se han agotado las solicitudes de por vida',
  '5005': 'Ya se tiene una solicitud registrada',
  '5006': 'Error interno en el proceso',
  '5011': 'Límite de descargas por folio por día',
} as const;
type RequestAnswer = keyof typeof REQUEST_ANSWERS;
const REQUEST_CODES = Object.keys(REQUEST_ANSWERS) as RequestAnswer[];

/** What `POST /__dev/sat/next-answer` may ask for (integrations.md §1): each applies to its own service. */
export const NEXT_ANSWERS = [...REQUEST_CODES, '5003', '5004', 'expired', '5007', '5008'] as const;
export type NextAnswer = (typeof NEXT_ANSWERS)[number];

export class SimulatorInputError extends Error {}

export interface SoapReply {
  status: number;
  body: string;
}

interface Solicitud {
  id: string;
  rfc: string;
  direction: 'emitidos' | 'recibidos';
  metadata: boolean;
  desde: string;
  hasta: string;
  estado: 'Todos' | 'Vigente' | 'Cancelado';
  polls: number;
  result?: VerifyFields;
}

interface Paquete {
  rfc: string;
  zip: Buffer;
  downloads: number;
}

const TOKEN_MS = 5 * 60_000;
const PAC = 'SAT970701NN3';
const ok = (body: string): SoapReply => ({ status: 200, body });
/** 'YYYY-MM-DDTHH:mm:ss' → SAT's metadata 'YYYY-MM-DD HH:mm:ss'. */
const spaced = (t: string) => t.replace('T', ' ').slice(0, 19);

function parseSoap(xml: string): Element | undefined {
  try {
    const doc = getParser().parseFromString(xml, 'text/xml');
    return childrenOf(childOf(doc.documentElement as Element, 'Body') as Element)[0];
  } catch {
    return undefined;
  }
}

export class SatSimulator {
  private readonly cfdis = new Map<string, HeldCfdi>();
  private readonly tokens = new Map<string, { rfc: string; expires: number }>();
  private readonly solicitudes = new Map<string, Solicitud>();
  private readonly paquetes = new Map<string, Paquete>();
  private failing = false;
  private next: NextAnswer | undefined;
  /** CFDI (or metadata lines) a package holds at most; SAT splits large requests into several. */
  private packageSize = Number.POSITIVE_INFINITY;

  constructor(private readonly now: () => Date = () => new Date()) {}

  // --- control routes -------------------------------------------------------------------------

  issueEfirma(rfc: string): TestEfirma {
    return issueTestEfirma(rfc, { desde: new Date(this.now().getTime() - 86_400_000) });
  }

  /** Places CFDI (XML texts, or a ZIP of them) for `rfc`, which must issue or receive each. */
  place(
    rfc: string,
    body: Uint8Array,
    status: { cancelado: boolean; fechaCancelacion: string | null },
  ): HeldCfdi[] {
    const isZip = body[0] === 0x50 && body[1] === 0x4b;
    const files = isZip
      ? Object.entries(unzipSync(body))
          .filter(([name]) => name.toLowerCase().endsWith('.xml'))
          .map(([, b]) => b)
      : [body];
    if (!files.length) throw new SimulatorInputError('No CFDI XML in the body');
    const parsed = files.map((bytes) => {
      const xml = Buffer.from(bytes).toString('utf8');
      const res = parseCfdi(xml);
      if (!res.ok) throw new SimulatorInputError(`Not a stamped CFDI: ${res.reason}`);
      const c = res.cfdi;
      if (c.emisor.rfc !== rfc && c.receptor.rfc !== rfc) {
        throw new SimulatorInputError(`CFDI ${c.uuid} is neither issued nor received by ${rfc}`);
      }
      return {
        uuid: c.uuid,
        xml,
        rfcEmisor: c.emisor.rfc,
        nombreEmisor: c.emisor.nombre,
        rfcReceptor: c.receptor.rfc,
        nombreReceptor: c.receptor.nombre,
        fecha: c.fecha.slice(0, 19),
        fechaTimbrado: c.fechaTimbrado.slice(0, 19),
        total: c.total,
        efecto: c.tipoDeComprobante,
        estatus: status.cancelado ? 'cancelado' : 'vigente',
        fechaCancelacion: status.cancelado ? (status.fechaCancelacion ?? this.today()) : null,
      } satisfies HeldCfdi;
    });
    for (const c of parsed) this.cfdis.set(c.uuid, c);
    return parsed;
  }

  list(rfc: string): HeldCfdi[] {
    return [...this.cfdis.values()].filter((c) => c.rfcEmisor === rfc || c.rfcReceptor === rfc);
  }

  cancel(rfc: string, uuid: string, fecha: string | null): HeldCfdi | undefined {
    const c = this.cfdis.get(uuid.toUpperCase());
    if (!c || (c.rfcEmisor !== rfc && c.rfcReceptor !== rfc)) return undefined;
    c.estatus = 'cancelado';
    c.fechaCancelacion = fecha ?? this.today();
    return c;
  }

  failNext(): void {
    this.failing = true;
  }

  answerNext(code: NextAnswer): void {
    this.next = code;
  }

  /** Packages made from now on hold at most `size` records each (null: one package a request). */
  setPackageSize(size: number | null): void {
    this.packageSize = size ?? Number.POSITIVE_INFINITY;
  }

  /** True once, after fail-next: the SAT call that meets it fails with HTTP 503. */
  takeFailure(): boolean {
    const failing = this.failing;
    this.failing = false;
    return failing;
  }

  /** The scripted answer, when it is one of `codes` (each applies to its own service). */
  private take<C extends NextAnswer>(...codes: C[]): C | undefined {
    const next = this.next as C | undefined;
    if (next === undefined || !codes.includes(next)) return undefined;
    this.next = undefined;
    return next;
  }

  private today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  // --- SAT's services -------------------------------------------------------------------------

  /** Autentica: the signature over u:Timestamp with the BinarySecurityToken's certificate. */
  authenticate(xml: string): SoapReply {
    let header: Element | undefined;
    try {
      header = childOf(getParser().parseFromString(xml, 'text/xml').documentElement as Element, 'Header');
    } catch {
      header = undefined;
    }
    const security = childOf(header, 'Security');
    const timestamp = childOf(security, 'Timestamp');
    const token = childOf(security, 'BinarySecurityToken');
    const signature = childOf(security, 'Signature');
    const refused = (message: string): SoapReply => ({ status: 500, body: faultAnswer(message) });
    if (!timestamp || !token || !signature)
      return refused('An error occurred when verifying security for the message.');
    try {
      const signer = verifySignature(
        signature,
        timestamp,
        (token.textContent ?? '').replace(/\s+/g, ''),
        this.now(),
      );
      const created = this.now();
      const expires = new Date(created.getTime() + TOKEN_MS);
      const value = randomBytes(24).toString('base64url');
      this.tokens.set(value, { rfc: signer.rfc, expires: expires.getTime() });
      return ok(tokenAnswer(created, expires, value));
    } catch (err) {
      if (err instanceof SignatureRefused) return refused(err.message);
      throw err;
    }
  }

  /**
   * What every signed operation checks: a token this simulator issued and still valid (else HTTP
   * 401), the signature (302/304/305), the signer is RfcSolicitante (303), the token is the
   * signer's (300). Answers the requester's RFC and the request element, or SAT's refusal code.
   */
  private signedOperation(
    xml: string,
    authorization: string | undefined,
  ):
    | { op: Element; request: Element; rfc: string }
    | { refused: SoapReply }
    | { code: number; message: string; op?: Element } {
    const token = /WRAP access_token="([^"]+)"/.exec(authorization ?? '')?.[1];
    const held = token ? this.tokens.get(token) : undefined;
    if (!held || held.expires < this.now().getTime()) return { refused: { status: 401, body: '' } };
    const op = parseSoap(xml);
    const request = op ? childrenOf(op)[0] : undefined;
    const signature = childOf(request, 'Signature');
    if (!op || !request || !signature) return { code: 301, message: 'XML Mal Formado', op };
    let signer: string;
    try {
      signer = verifySignature(signature, op, undefined, this.now()).rfc;
    } catch (err) {
      if (err instanceof SignatureRefused) return { code: err.code, message: err.message, op };
      throw err;
    }
    const rfc = (request.getAttribute('RfcSolicitante') ?? '').toUpperCase();
    if (signer !== rfc) return { code: 303, message: 'Sello no corresponde con RfcSolicitante', op };
    if (held.rfc !== rfc) return { code: 300, message: 'Usuario No Válido', op };
    return { op, request, rfc };
  }

  /** SolicitaDescargaEmitidos / SolicitaDescargaRecibidos. */
  query(xml: string, authorization: string | undefined): SoapReply {
    const checked = this.signedOperation(xml, authorization);
    if ('refused' in checked) return checked.refused;
    const operation = checked.op?.localName ?? 'SolicitaDescargaEmitidos';
    if ('code' in checked) return ok(queryAnswer(operation, checked.code, checked.message));
    const { request, rfc } = checked;
    const attr = (name: string) => request.getAttribute(name) ?? '';
    const direction = operation === 'SolicitaDescargaRecibidos' ? 'recibidos' : 'emitidos';
    const metadata = attr('TipoSolicitud') === 'Metadata';
    const estado = (attr('EstadoComprobante') || 'Todos') as Solicitud['estado'];
    if (direction === 'recibidos' && !metadata && estado !== 'Vigente') {
      return ok(queryAnswer(operation, 301, 'No se permite la descarga de xml que se encuentren cancelados'));
    }
    const forced = this.take(...REQUEST_CODES);
    if (forced) return ok(queryAnswer(operation, Number(forced), REQUEST_ANSWERS[forced]));
    const id = randomUUID();
    this.solicitudes.set(id, {
      id,
      rfc,
      direction,
      metadata,
      desde: attr('FechaInicial'),
      hasta: attr('FechaFinal'),
      estado,
      polls: 0,
    });
    return ok(queryAnswer(operation, 5000, 'Solicitud Aceptada', id));
  }

  /** VerificaSolicitudDescarga: "in progress" on the first poll, the outcome from the second on. */
  verify(xml: string, authorization: string | undefined): SoapReply {
    const checked = this.signedOperation(xml, authorization);
    if ('refused' in checked) return checked.refused;
    if ('code' in checked) return ok(verifyAnswer({ code: checked.code, message: checked.message }));
    const solicitud = this.solicitudes.get(checked.request.getAttribute('IdSolicitud') ?? '');
    if (!solicitud || solicitud.rfc !== checked.rfc) {
      return ok(verifyAnswer({ code: 5004, message: 'No se encontró la solicitud' }));
    }
    solicitud.polls += 1;
    const forced = this.take('5003', '5004', 'expired');
    if (forced) solicitud.result = this.forcedOutcome(forced);
    if (!solicitud.result && solicitud.polls === 1) {
      return ok(verifyAnswer({ code: 5000, message: 'Solicitud Aceptada', estado: 2, codigoEstado: 5000 }));
    }
    solicitud.result ??= this.finish(solicitud);
    return ok(verifyAnswer(solicitud.result));
  }

  private forcedOutcome(code: '5003' | '5004' | 'expired'): VerifyFields {
    if (code === 'expired')
      return { code: 5000, message: 'Solicitud Aceptada', estado: 6, codigoEstado: 5000 };
    return {
      code: 5000,
      message: 'Solicitud Aceptada',
      estado: 5,
      codigoEstado: Number(code),
      numeroCfdis: 0,
    };
  }

  /** The request's packages, from what the simulator holds now. */
  private finish(s: Solicitud): VerifyFields {
    const held = [...this.cfdis.values()].filter(
      (c) =>
        (s.direction === 'emitidos' ? c.rfcEmisor : c.rfcReceptor) === s.rfc &&
        c.fecha >= s.desde &&
        c.fecha <= s.hasta &&
        (s.estado === 'Todos' || (s.estado === 'Vigente') === (c.estatus === 'vigente')),
    );
    if (!held.length) {
      return { code: 5000, message: 'Solicitud Aceptada', estado: 5, codigoEstado: 5004, numeroCfdis: 0 };
    }
    const packageIds: string[] = [];
    for (let from = 0; from < held.length; from += this.packageSize) {
      const part = held.slice(from, from + this.packageSize);
      const packageId = `${s.id.toUpperCase()}_${String(packageIds.length + 1).padStart(2, '0')}`;
      const files: Record<string, Uint8Array> = s.metadata
        ? { [`${packageId}.txt`]: strToU8(metadataFile(part)) }
        : Object.fromEntries(part.map((c) => [`${c.uuid}.xml`, strToU8(c.xml)]));
      this.paquetes.set(packageId, { rfc: s.rfc, zip: Buffer.from(zipSync(files)), downloads: 0 });
      packageIds.push(packageId);
    }
    return {
      code: 5000,
      message: 'Solicitud Aceptada',
      estado: 3,
      codigoEstado: 5000,
      numeroCfdis: held.length,
      packageIds,
    };
  }

  /** Descargar: each package at most twice (5008), unknown or foreign ones 5007 (as an expired one). */
  download(xml: string, authorization: string | undefined): SoapReply {
    const checked = this.signedOperation(xml, authorization);
    if ('refused' in checked) return checked.refused;
    if ('code' in checked) return ok(downloadAnswer(checked.code, checked.message));
    const paquete = this.paquetes.get(checked.request.getAttribute('IdPaquete') ?? '');
    if (!paquete || paquete.rfc !== checked.rfc)
      return ok(downloadAnswer(5007, 'No existe el paquete solicitado'));
    paquete.downloads += 1;
    const forced = this.take('5007', '5008');
    if (forced === '5007') return ok(downloadAnswer(5007, 'No existe el paquete solicitado'));
    if (forced === '5008' || paquete.downloads > 2) {
      return ok(downloadAnswer(5008, 'Máximo de descargas permitidas'));
    }
    return ok(downloadAnswer(5000, 'Solicitud Aceptada', paquete.zip));
  }

  /** ConsultaCFDIService (unsigned): by the printed expression's id, re and rr. */
  status(xml: string): SoapReply {
    const op = parseSoap(xml);
    const expression = (childOf(op, 'expresionImpresa')?.textContent ?? '').trim();
    const params = new URLSearchParams(
      expression.slice(expression.indexOf('?') + 1).replaceAll('&amp;', '&'),
    );
    const c = this.cfdis.get((params.get('id') ?? '').toUpperCase());
    if (!c || c.rfcEmisor !== params.get('re') || c.rfcReceptor !== params.get('rr')) {
      return ok(
        statusAnswer({
          codigoEstatus: 'N - 602: Comprobante no encontrado.',
          estado: 'No Encontrado',
          esCancelable: '',
          estatusCancelacion: '',
        }),
      );
    }
    const cancelled = c.estatus === 'cancelado';
    return ok(
      statusAnswer({
        codigoEstatus: 'S - Comprobante obtenido satisfactoriamente.',
        estado: cancelled ? 'Cancelado' : 'Vigente',
        esCancelable: 'Cancelable sin aceptación',
        estatusCancelacion: cancelled ? 'Cancelado sin aceptación' : '',
      }),
    );
  }
}

/** SAT's metadata file: `~`-separated, a header line, CRLF, Estatus 1 vigente / 0 cancelado. */
function metadataFile(held: HeldCfdi[]): string {
  const header =
    'Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~RfcPac~FechaEmision~FechaCertificacionSat~Monto~EfectoComprobante~Estatus~FechaCancelacion';
  const lines = held.map((c) =>
    [
      c.uuid,
      c.rfcEmisor,
      c.nombreEmisor,
      c.rfcReceptor,
      c.nombreReceptor,
      PAC,
      spaced(c.fecha),
      spaced(c.fechaTimbrado),
      c.total.toFixed(2),
      c.efecto,
      c.estatus === 'vigente' ? '1' : '0',
      c.fechaCancelacion ? `${c.fechaCancelacion} 00:00:00` : '',
    ].join('~'),
  );
  return `${[header, ...lines].join('\r\n')}\r\n`;
}
