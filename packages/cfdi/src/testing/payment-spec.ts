import type { Party, Relacionados } from './xml-parts';

export interface PaymentSpec {
  uuid: string;
  emisor: Party;
  receptor: Party;
  fecha: string;
  /** CfdiRelacionados (a substitute complement's 04 to the one it replaces). */
  relacionados?: Relacionados;
  pagos: Array<{
    fechaPago: string;
    formaPago?: string;
    monedaP?: string;
    tipoCambioP?: number;
    doctos: Array<{
      uuid: string;
      monedaDR?: string;
      equivalenciaDR?: number;
      numParcialidad: number;
      impSaldoAnt: number;
      impPagado: number;
      /** As stated; default ImpSaldoAnt − ImpPagado (a defective REP states something else). */
      impSaldoInsoluto?: number;
      /** Pagos 2.0 ImpuestosDR: IVA traslados (rate as a fraction) and withholdings, in MonedaDR. */
      impuestosDR?: {
        traslados?: Array<{ base: number; tasa: number; importe: number }>;
        retenciones?: Array<{ impuesto: '001' | '002'; base: number; tasa: number; importe: number }>;
      };
    }>;
  }>;
}
