import type { Dec } from './decimal';
import type { OperacionFacts } from './diot-tipo';

export type Region8 = 'norte' | 'sur';

/** What Folio knows of one paid document (a CFDI by id, a manual expense by `manual:<id>`). */
export interface DiotDocFacts extends OperacionFacts {
  /** A manual expense: no CFDI behind it. */
  sinCfdi: boolean;
  /** The 8 % region of the supplier's LugarExpedicion (null when unknown). */
  region8: Region8 | null;
  /**
   * The base not subject to IVA (ObjetoImp 01) and the document's Total, in its currency: a paid
   * share of the Total pays that share of it. Null when there is none (or it is unknown).
   */
  noObjeto: { base: Dec; total: Dec } | null;
  /** A foreign supplier typed in by hand: tipo de tercero 05, one row per tax id. */
  extranjero: { idFiscal: string; pais: string; nombre: string } | null;
}
