// What a manual expense says about its IVA (docs/iva-isr.md#creditable-iva): the proof that makes it
// creditable (LIVA 5-II: its CFDI's UUID, an import's pedimento, a foreign digital service under
// LIVA 18-D), how it was paid (LIVA 5-I: cash over 2,000.00 is not creditable) and its use (LIVA
// 5-V). The same rules for the creation and a later change; absent fields stay as they are.
import { FORMA_PAGO } from '@folio/cfdi';
import { badRequest } from '../../errors';

export interface IvaSupportInput {
  /** null clears the field (PATCH). */
  uuid_cfdi?: string | null;
  pedimento?: string | null;
  proveedor_extranjero_digital?: boolean;
  forma_pago?: string | null;
  uso_iva?: 'gravado' | 'exento' | null;
}

export interface IvaSupport {
  uuidCfdi?: string | null;
  pedimento?: string | null;
  proveedorExtranjeroDigital?: boolean;
  formaPago?: string | null;
  usoIva?: 'gravado' | 'exento' | null;
}

const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
/** Anexo 20's NumeroPedimento: year (2), customs office (2), patent (4), number (7), two spaces between. */
const PEDIMENTO = /^(\d{2}) *(\d{2}) *(\d{4}) *(\d{7})$/;

/** The fields given, checked and normalised (UUID upper case, pedimento as Anexo 20 writes it). */
export function ivaSupportOf(input: IvaSupportInput): IvaSupport {
  const out: IvaSupport = {};
  if (input.uuid_cfdi !== undefined) {
    const uuid = input.uuid_cfdi?.trim().toUpperCase() ?? null;
    if (uuid !== null && !UUID.test(uuid)) {
      throw badRequest('uuid_cfdi: not a CFDI UUID (8-4-4-4-12 hexadecimal digits)', 'uuid_invalid');
    }
    out.uuidCfdi = uuid;
  }
  if (input.pedimento !== undefined) {
    const match = input.pedimento === null ? null : PEDIMENTO.exec(input.pedimento.trim());
    if (input.pedimento !== null && !match) {
      throw badRequest('pedimento: 15 digits, as "25  47  3082  5001234"', 'pedimento_invalid');
    }
    out.pedimento = match ? match.slice(1).join('  ') : null;
  }
  if (input.proveedor_extranjero_digital !== undefined) {
    out.proveedorExtranjeroDigital = input.proveedor_extranjero_digital;
  }
  if (input.forma_pago !== undefined) {
    if (input.forma_pago !== null && !Object.hasOwn(FORMA_PAGO, input.forma_pago)) {
      throw badRequest(`forma_pago: ${input.forma_pago} is not in c_FormaPago`, 'forma_pago_invalid');
    }
    out.formaPago = input.forma_pago;
  }
  if (input.uso_iva !== undefined) out.usoIva = input.uso_iva;
  return out;
}
