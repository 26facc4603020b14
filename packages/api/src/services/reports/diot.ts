import {
  type CfdiFacts,
  isProduct,
  isRent,
  isService,
  personaOfRfc,
  type RetencionPorTasa,
  regionFronteriza,
} from '@folio/cfdi';
import type { Executor } from '@folio/db';
import {
  type DiotCfdiFactsRow,
  diotCfdiFacts,
  diotManualFacts,
  diotReportRows,
  listDiotOverrides,
} from '@folio/db/queries/diot';
import { taxSettingsOf } from '@folio/db/queries/tax-settings';
import { dec, ONE, ratio, ZERO } from './compute/decimal';
import { type DiotOverride, diotReport } from './compute/diot';
import type { DiotDocFacts } from './compute/diot-facts';
import { reliefWarnings } from './compute/diot-relief';
import type { TipoOperacion } from './compute/diot-tipo';
import type { Period, ReportProfile } from './compute/monthly';
import type { ReportRows } from './compute/rows';
import { settingsOf } from './compute/year';
import { monthRange } from './rules';

// The DIOT of a month: its rows, the facts of every paid document and the user's word per
// supplier read in a few statements, then the pure computation (compute/diot.ts).

export async function diotOfMonth(db: Executor, profile: ReportProfile, q: Period) {
  const [rows, settings] = await Promise.all([
    diotReportRows(db, { profileId: profile.id, ...monthRange(q.año, q.mes) }),
    taxSettingsOf(db, profile.id, q.año),
  ]);
  const [facts, overrides] = await Promise.all([factsOf(db, profile.id, rows), overridesOf(db, profile.id)]);
  const { proporcion5b } = settingsOf(settings);
  const { proveedores, advertencias } = diotReport({ rows, facts, overrides, proporcion5b }, q);
  return { proveedores, advertencias: [...advertencias, ...reliefWarnings(profile)] };
}

async function factsOf(
  db: Executor,
  profileId: string,
  rows: ReportRows,
): Promise<Map<string, DiotDocFacts>> {
  // Only what was paid: the income side is there for the proportion.
  const cfdiIds = new Set(rows.docs.filter((d) => d.side === 'expense').map((d) => d.id));
  for (const p of rows.payments) if (p.invoice && p.side === 'expense') cfdiIds.add(p.invoice.id);
  for (const n of rows.notes) if (n.doc.side === 'expense') cfdiIds.add(n.doc.id);
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
      noObjeto: null,
      extranjero: foreign
        ? { idFiscal: m.idFiscal as string, pais: m.pais as string, nombre: m.nombre ?? m.idFiscal! }
        : null,
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

/**
 * A CFDI's facts for the derivation: its concepts' ClaveProdServ and the ISR withheld by rate
 * (CfdiFacts); before the back-fill reaches it, the rate is told from the ISR over Subtotal − Descuento.
 */
function cfdiFacts(c: DiotCfdiFactsRow): DiotDocFacts {
  const f = c.facts as Pick<CfdiFacts, 'conceptos' | 'retenciones' | 'emisorPersonaFisica'> | null;
  const claves = f?.conceptos.map((k) => k.claveProdServ) ?? null;
  return {
    regimenEmisor: c.regimen_emisor,
    personaFisica: f?.emisorPersonaFisica ?? personaOfRfc(c.rfc_emisor) === 'FISICA',
    renta: claves ? claves.some(isRent) : null,
    servicios: claves ? claves.some(isService) : null,
    soloProductos: claves ? claves.length > 0 && claves.every(isProduct) : null,
    tasasIsrRetenido: f ? isrRates(f.retenciones) : estimatedIsrRate(c),
    noObjeto: noObjetoOf(c),
    sinCfdi: false,
    region8: regionFronteriza(c.lugar_expedicion),
    extranjero: null,
  };
}

/** ObjetoImp 01 base and the document's Total, both in its currency (a payment pays a share of both). */
function noObjetoOf(c: DiotCfdiFactsRow): DiotDocFacts['noObjeto'] {
  const own = c.own_facts as Pick<CfdiFacts, 'basePorObjetoImp'> | null;
  const base = own?.basePorObjetoImp['01'];
  return base ? { base: dec(base), total: dec(c.total) } : null;
}

const isrRates = (r: RetencionPorTasa[]) =>
  r.flatMap((t) => (t.impuesto === 'ISR' && t.tasa !== undefined ? [t.tasa] : []));

function estimatedIsrRate(c: DiotCfdiFactsRow): number[] {
  const base = dec(c.base);
  const isr = dec(c.retencion_isr);
  if (base <= ZERO || isr <= ZERO) return [];
  return [Number(ratio(isr, ONE, base)) / Number(ONE)];
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
