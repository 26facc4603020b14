import { type Dec, dec, ZERO } from './decimal';

// LIVA art. 5: which IVA paid in a month may be credited. Each expense payment is judged on its own
// (fracciones I and II); what passes is then split by its use (fracción V) in proportion.ts.

/** Why an expense's IVA is not creditable (shown in the advertencias). */
export type MotivoNoAcreditable = 'sin_cfdi' | 'efectivo' | 'combustible_efectivo';

/** How the user says an expense is used (LIVA 5-V): only taxed acts, only exempt ones, or both (null). */
export type UsoIva = 'gravado' | 'exento' | null;

/** What an expense payment needs for the rules: how it was paid, its operation's total, its proof. */
export interface IvaFacts {
  /** c_FormaPago of the payment: the CFDI's on a PUE, FormaDePagoP on a REP, the manual payment's. */
  formaPago: string | null;
  /** The operation's total in MXN (the invoice's total, not the payment: split payments are caught). */
  totalOperacion: Dec;
  /** Vehicle fuel (ClaveProdServ 151015xx) among its concepts. */
  combustible: boolean;
  /**
   * The document behind the IVA (LIVA 5-II): a CFDI, or a manual expense's CFDI UUID, pedimento or a
   * foreign digital service registered under LIVA 18-D; null: nothing that supports the credit.
   */
  comprobante: 'cfdi' | 'uuid' | 'pedimento' | '18-D' | null;
  usoIva: UsoIva;
}

export const FORMA_PAGO_EFECTIVO = '01';
/** LISR art. 27-III: expenses over 2,000.00 must be paid by check, transfer, card or e-wallet. */
export const LIMITE_EFECTIVO = dec('2000.00');

/** null when creditable; the reason otherwise. Fuel first: in cash it never passes, at any amount. */
export function motivoNoAcreditable(f: IvaFacts): MotivoNoAcreditable | null {
  if (f.comprobante === null) return 'sin_cfdi';
  const efectivo = f.formaPago === FORMA_PAGO_EFECTIVO;
  if (efectivo && f.combustible) return 'combustible_efectivo';
  if (efectivo && f.totalOperacion > LIMITE_EFECTIVO) return 'efectivo';
  return null;
}

/** A month's expense IVA sorted by the rules: what is creditable, by use, and what is not and why. */
export interface IvaPagadoSplit {
  /** Creditable and used only for taxed acts: credited in full. */
  gravado: Dec;
  /** Creditable and used only for exempt acts: never credited. */
  exento: Dec;
  /** Creditable, for both kinds of acts (the default): credited in proportion. */
  proporcional: Dec;
  /** Not creditable by fracción I or II, by reason. */
  noAcreditable: Record<MotivoNoAcreditable, Dec>;
}

export const emptySplit = (): IvaPagadoSplit => ({
  gravado: ZERO,
  exento: ZERO,
  proporcional: ZERO,
  noAcreditable: { sin_cfdi: ZERO, efectivo: ZERO, combustible_efectivo: ZERO },
});

/** Where one payment's IVA goes: a reason it is not creditable, or the use it is credited by. */
export type DestinoIva = MotivoNoAcreditable | 'gravado' | 'exento' | 'proporcional';

/** Fracciones I and II first (motivoNoAcreditable), then the use the user tagged (fracción V). */
export function destinoIva(f: IvaFacts): DestinoIva {
  return (
    motivoNoAcreditable(f) ?? (f.usoIva === 'gravado' || f.usoIva === 'exento' ? f.usoIva : 'proporcional')
  );
}

/** Adds one payment's IVA (negative for a supplier's credit note) to the split. */
export function addIva(split: IvaPagadoSplit, iva: Dec, f: IvaFacts): void {
  const destino = destinoIva(f);
  if (destino === 'gravado' || destino === 'exento' || destino === 'proporcional') split[destino] += iva;
  else split.noAcreditable[destino] += iva;
}

/** The facts of a cash movement on the expense side, and how the advertencias name it. */
export interface CreditFacts extends IvaFacts {
  label: string;
}

/** A received CFDI paid on its own date (PUE), or a payment of a PPD one (its REP's or manual payment's form, judged on the invoice's total). */
export function factsOfDoc(
  doc: { uuid: string; formaPago: string | null; combustible: boolean; usoIva: UsoIva },
  totalMxn: Dec,
): CreditFacts {
  return {
    label: `CFDI ${doc.uuid}`,
    formaPago: doc.formaPago,
    totalOperacion: totalMxn,
    combustible: doc.combustible,
    comprobante: 'cfdi',
    usoIva: doc.usoIva,
  };
}

/** A supplier's credit note (LIVA 7) and any other CFDI movement without facts: it lowers the prorated credit. */
export const CFDI_SIN_PAGO: IvaFacts = {
  formaPago: null,
  totalOperacion: ZERO,
  combustible: false,
  comprobante: 'cfdi',
  usoIva: null,
};

/** A manual expense: creditable only with its CFDI's UUID, a pedimento or as a foreign digital service (18-D). */
export function factsOfManual(e: {
  id: string;
  concepto?: string;
  uuidCfdi: string | null;
  pedimento: string | null;
  proveedorExtranjeroDigital: boolean;
  formaPago: string | null;
  usoIva: UsoIva;
  total: Dec;
}): CreditFacts {
  return {
    label: `gasto manual ${e.id}`,
    formaPago: e.formaPago,
    totalOperacion: e.total,
    combustible: false,
    comprobante: e.uuidCfdi
      ? 'uuid'
      : e.pedimento
        ? 'pedimento'
        : e.proveedorExtranjeroDigital
          ? '18-D'
          : null,
    usoIva: e.usoIva,
  };
}
