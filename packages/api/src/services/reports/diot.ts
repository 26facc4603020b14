import type { Executor } from '@folio/db';
import {
  type DiotCfdiFactsRow,
  diotCfdiFacts,
  diotManualFacts,
  diotReportRows,
  listDiotOverrides,
} from '@folio/db/queries/diot';
import { dec, ONE, ratio, ZERO } from './compute/decimal';
import { type DiotDocFacts, type DiotOverride, diotReport } from './compute/diot';
import type { TipoOperacion } from './compute/diot-tipo';
import type { Period, ReportProfile } from './compute/monthly';
import type { ReportRows } from './compute/rows';
import { monthRange } from './rules';

// The DIOT of a month: its rows, the facts of every paid document and the user's word per
// supplier read in a few statements, then the pure computation (compute/diot.ts).

export async function diotOfMonth(db: Executor, profile: ReportProfile, q: Period) {
  const rows = await diotReportRows(db, { profileId: profile.id, ...monthRange(q.año, q.mes) });
  const [facts, overrides] = await Promise.all([factsOf(db, profile.id, rows), overridesOf(db, profile.id)]);
  const { proveedores, advertencias } = diotReport({ rows, facts, overrides }, q);
  return { proveedores, advertencias: [...advertencias, ...reliefWarnings(profile)] };
}

async function factsOf(
  db: Executor,
  profileId: string,
  rows: ReportRows,
): Promise<Map<string, DiotDocFacts>> {
  const cfdiIds = new Set(rows.docs.map((d) => d.id));
  for (const p of rows.payments) if (p.invoice) cfdiIds.add(p.invoice.id);
  const manualIds = rows.manualExpenses.map((e) => e.id);
  const [cfdi, manual] = await Promise.all([
    diotCfdiFacts(db, profileId, [...cfdiIds]),
    diotManualFacts(db, profileId, manualIds),
  ]);
  const facts = new Map<string, DiotDocFacts>();
  for (const c of cfdi) facts.set(c.id, cfdiFacts(c));
  for (const m of manual) {
    const foreign = m.tipoTercero === '05' && m.idFiscal && m.pais;
    facts.set(`manual:${m.id}`, {
      ...UNKNOWN_OPERATION,
      sinCfdi: true,
      region8: null,
      metodoPago: null,
      formaPago: null,
      extranjero: foreign ? { idFiscal: m.idFiscal as string, pais: m.pais as string } : null,
    });
  }
  return facts;
}

const UNKNOWN_OPERATION = {
  regimenEmisor: null,
  personaFisica: false,
  renta: null,
  servicios: null,
  soloProductos: null,
  tasasIsrRetenido: [] as number[],
};

/** A CFDI's facts; the ISR withheld's rate is told from its amount over the base (Subtotal − Descuento). */
function cfdiFacts(c: DiotCfdiFactsRow): DiotDocFacts {
  const base = dec(c.base);
  const isr = dec(c.retencion_isr);
  const tasa = base > ZERO && isr > ZERO ? Number(ratio(isr, ONE, base)) / Number(ONE) : null;
  return {
    ...UNKNOWN_OPERATION,
    regimenEmisor: c.regimen_emisor,
    personaFisica: c.rfc_emisor.length === 13,
    tasasIsrRetenido: tasa === null ? [] : [tasa],
    sinCfdi: false,
    region8: null,
    metodoPago: c.metodo_pago,
    formaPago: c.forma_pago,
    extranjero: null,
  };
}

async function overridesOf(db: Executor, profileId: string): Promise<Map<string, DiotOverride>> {
  const rows = await listDiotOverrides(db, profileId);
  return new Map(
    rows.map((r) => [
      r.clave,
      { tipoOperacion: r.tipoOperacion as TipoOperacion | null, region8: r.region8 },
    ]),
  );
}

/**
 * Who must file (LIVA 32-VIII): personas morales always. The RMF relieves personas físicas in
 * RESICO and, under a revenue threshold of the previous year, those in 612 and 606; Folio
 * generates the file anyway and says so.
 */
export function reliefWarnings(profile: ReportProfile): string[] {
  if (profile.tipoPersona !== 'FISICA') return [];
  const r = profile.regimenesFiscales;
  if (r.includes('626')) {
    return ['Persona física en RESICO: la Resolución Miscelánea Fiscal la releva de presentar la DIOT'];
  }
  if (r.includes('612') || r.includes('606')) {
    return [
      'Persona física en régimen 612 o 606: la Resolución Miscelánea Fiscal la releva de presentar la DIOT ' +
        'si sus ingresos del año anterior no excedieron el límite que fija; Folio no lo sabe',
    ];
  }
  return [];
}
