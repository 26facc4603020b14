// SAT's SOAP answers, shaped like the @nodecfdi/sat-ws-descarga-masiva response fixtures
// (tests/_files/*/response-*.xml) and SAT's status service, so the real clients read them.

const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const DESCARGA = 'http://DescargaMasivaTerceros.sat.gob.mx';

export const xmlAttr = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;').replaceAll('>', '&gt;');

export const tokenAnswer = (created: Date, expires: Date, token: string) =>
  `<?xml version="1.0"?><s:Envelope xmlns:s="${ENV}" xmlns:u="${WSU}"><s:Header><o:Security xmlns:o="${WSSE}" s:mustUnderstand="1"><u:Timestamp u:Id="_0"><u:Created>${created.toISOString()}</u:Created><u:Expires>${expires.toISOString()}</u:Expires></u:Timestamp></o:Security></s:Header><s:Body><AutenticaResponse xmlns="http://DescargaMasivaTerceros.gob.mx"><AutenticaResult>${xmlAttr(token)}</AutenticaResult></AutenticaResponse></s:Body></s:Envelope>`;

/** SAT's answer to a refused authentication: a SOAP fault (HTTP 500). */
export const faultAnswer = (message: string) =>
  `<s:Envelope xmlns:s="${ENV}"><s:Body><s:Fault><faultcode xmlns:a="${WSSE}">a:InvalidSecurity</faultcode><faultstring xml:lang="en-US">${xmlAttr(message)}</faultstring></s:Fault></s:Body></s:Envelope>`;

export const queryAnswer = (operation: string, code: number, message: string, requestId?: string) =>
  `<?xml version="1.0"?><s:Envelope xmlns:s="${ENV}"><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><${operation}Response xmlns="${DESCARGA}"><${operation}Result${requestId ? ` IdSolicitud="${xmlAttr(requestId)}"` : ''} CodEstatus="${code}" Mensaje="${xmlAttr(message)}" /></${operation}Response></s:Body></s:Envelope>`;

export interface VerifyFields {
  code: number;
  message: string;
  estado?: number;
  codigoEstado?: number;
  numeroCfdis?: number;
  packageIds?: string[];
}

export const verifyAnswer = (v: VerifyFields) =>
  `<s:Envelope xmlns:s="${ENV}"><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><VerificaSolicitudDescargaResponse xmlns="${DESCARGA}"><VerificaSolicitudDescargaResult CodEstatus="${v.code}" EstadoSolicitud="${v.estado ?? 0}" CodigoEstadoSolicitud="${v.codigoEstado ?? 0}" NumeroCFDIs="${v.numeroCfdis ?? 0}" Mensaje="${xmlAttr(v.message)}">${(v.packageIds ?? []).map((id) => `<IdsPaquetes>${xmlAttr(id)}</IdsPaquetes>`).join('')}</VerificaSolicitudDescargaResult></VerificaSolicitudDescargaResponse></s:Body></s:Envelope>`;

export const downloadAnswer = (code: number, message: string, zip?: Buffer) =>
  `<s:Envelope xmlns:s="${ENV}"><s:Header><h:respuesta CodEstatus="${code}" Mensaje="${xmlAttr(message)}" xmlns:h="${DESCARGA}" xmlns="${DESCARGA}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" /></s:Header><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><RespuestaDescargaMasivaTercerosSalida xmlns="${DESCARGA}"><Paquete>${zip ? zip.toString('base64') : ''}</Paquete></RespuestaDescargaMasivaTercerosSalida></s:Body></s:Envelope>`;

export interface StatusFields {
  codigoEstatus: string;
  estado: string;
  esCancelable: string;
  estatusCancelacion: string;
}

export const statusAnswer = (s: StatusFields) =>
  `<s:Envelope xmlns:s="${ENV}"><s:Body><ConsultaResponse xmlns="http://tempuri.org/"><ConsultaResult xmlns:a="http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><a:CodigoEstatus>${xmlAttr(s.codigoEstatus)}</a:CodigoEstatus><a:EsCancelable>${xmlAttr(s.esCancelable)}</a:EsCancelable><a:Estado>${xmlAttr(s.estado)}</a:Estado>${s.estatusCancelacion ? `<a:EstatusCancelacion>${xmlAttr(s.estatusCancelacion)}</a:EstatusCancelacion>` : '<a:EstatusCancelacion/>'}<a:ValidacionEFOS>200</a:ValidacionEFOS></ConsultaResult></ConsultaResponse></s:Body></s:Envelope>`;
