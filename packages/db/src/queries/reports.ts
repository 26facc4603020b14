import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../client';
import { TAXES_VERSION } from '../schema';
import { countsIn } from './counts-in-reports';
import type {
  IvaPorTasa,
  NotedInvoice,
  PendingDoc,
  ReportDoc,
  ReportManualExpense,
  ReportNomina,
  ReportNote,
  ReportPayment,
  ReportRows,
} from './report-rows';

// The tax reports' rows: a handful of set-based statements per report, whatever the period's size
// (a month or a year). Dates are text as written (Mexico City local time), so a period is the text
// range [from, to) of 'YYYY-MM-DD' prefixes; amounts come out as numeric text (exact).

export interface ReportRange {
  profileId: string;
  /** First day of the period, 'YYYY-MM-DD'. */
  from: string;
  /** First day after it. */
  to: string;
}

/** The IVA-by-rate columns (cfdis and payment_applications), NULL while unknown (before the back-fill). */
const BY_RATE = ['base_16', 'iva_16', 'base_8', 'iva_8', 'base_0', 'base_exenta'] as const;
const byRate = (alias: string, prefix = '') =>
  BY_RATE.map((c) => `${alias}.${c}::text as ${prefix}${c}`).join(', ');

type ByRateRecord = Record<(typeof BY_RATE)[number], string | null>;

const toPorTasa = (r: object, prefix = ''): IvaPorTasa | null => {
  const [base16 = null, iva16 = null, base8 = null, iva8 = null, base0 = null, baseExenta = null] =
    BY_RATE.map((c) => (r as Record<string, string | null>)[prefix + c] ?? null);
  return base16 === null ? null : { base16, iva16, base8, iva8, base0, baseExenta };
};

// tax-rules §4 (creditable IVA, proportion, totals by rate): what the facts (cfdis.facts,
// docs/cfdi.md#facts) say of a document, as numbers a group sums: the non-object base (ObjetoImp 01),
// the interest of LIVA 5-C by kind (object with IVA, object without IVA read as exempt, non-object)
// and whether vehicle fuel (ClaveProdServ 151015xx) is among its concepts.
// Only income with an interest concept walks its concepts (a containment test first), and only
// expenses look for fuel: a year of 100,000 CFDI reads these in one pass.
const interestBase = (alias: string, kind: string) =>
  `case when ${alias}.side = 'income' and ${alias}.facts @> '{"conceptos":[{"interes":true}]}'
    then coalesce((select sum((x->>'base')::numeric) from jsonb_array_elements(${alias}.facts->'conceptos') x
      where (x->>'interes')::boolean and ${kind}), 0) else 0 end`;
const FACTS = {
  base_no_objeto: (a: string) => `coalesce((${a}.facts->'basePorObjetoImp'->>'01')::numeric, 0)`,
  interes_gravado: (a: string) => interestBase(a, `x->>'objetoImp' <> '01' and (x->>'iva')::numeric <> 0`),
  interes_exento: (a: string) => interestBase(a, `x->>'objetoImp' <> '01' and (x->>'iva')::numeric = 0`),
  interes_no_objeto: (a: string) => interestBase(a, `x->>'objetoImp' = '01'`),
};
const FUEL = (a: string) =>
  `(${a}.side = 'expense' and coalesce(jsonb_path_exists(${a}.facts, '$.conceptos[*] ? (@.claveProdServ starts with "151015")'), false))`;
const factColumns = (a: string) =>
  `${Object.entries(FACTS)
    .map(([name, expr]) => `${expr(a)}::text as ${name}`)
    .join(', ')}, ${FUEL(a)} as combustible`;
const factSums = (a: string) =>
  `${Object.entries(FACTS)
    .map(([name, expr]) => `sum(${expr(a)})::text as ${name}`)
    .join(', ')}, bool_or(${FUEL(a)}) as combustible`;
type FactsRecord = Record<keyof typeof FACTS, string | null> & { combustible: boolean | null };
const toFacts = (r: FactsRecord) => ({
  baseNoObjeto: r.base_no_objeto,
  interesGravado: r.interes_gravado,
  interesExento: r.interes_exento,
  interesNoObjeto: r.interes_no_objeto,
  combustible: r.combustible ?? false,
});

/** The columns of a CFDI as a ReportDoc, read from the table under `alias`. */
export const docColumns = (alias: string) =>
  sql.raw(`
    ${alias}.id, ${alias}.uuid, ${alias}.side, ${alias}.tipo_comprobante, ${alias}.tipo,
    ${alias}.fecha, ${alias}.moneda, ${alias}.tipo_cambio::text as tipo_cambio,
    ${alias}.subtotal::text as subtotal, ${alias}.descuento::text as descuento, ${alias}.total::text as total,
    ${alias}.iva_amount::text as iva_amount, ${alias}.retencion_iva_amount::text as retencion_iva_amount,
    ${alias}.retencion_isr_amount::text as retencion_isr_amount, ${alias}.iva::text as iva,
    ${alias}.rfc_emisor, ${alias}.nombre_emisor, ${alias}.rfc_receptor, ${alias}.nombre_receptor,
    ${alias}.forma_pago, ${alias}.uso_iva, ${alias}.acto_5c, ${byRate(alias)}, ${factColumns(alias)},
    ${VALIDO(alias)} as valido, ${PENDING_DETAIL(alias)}::int as pending_tax_detail`);

/** The TipoRelacion of notes that lower an invoice (tax-rules §2, §3): 01 nota de crédito, 03 devolución, 07 anticipo. */
const NOTE_RELATIONS = `('01', '03', '07')`;

/** Whether a CFDI passed validation (rows from before the flag count as valid). */
const VALIDO = (alias: string) => `coalesce((${alias}.validacion->>'valido')::boolean, true)`;
/** Whether a CFDI still waits for the tax-detail back-fill or its re-derivation (0 marks one whose XML could not be read: not pending). */
const PENDING_DETAIL = (alias: string) =>
  `(${alias}.taxes_version is null or (${alias}.taxes_version > 0 and ${alias}.taxes_version < ${TAXES_VERSION}))`;

export interface DocRecord extends ByRateRecord, FactsRecord {
  id: string;
  uuid: string;
  side: 'income' | 'expense';
  tipo_comprobante: 'I' | 'E';
  tipo: 'PUE' | 'PPD';
  fecha: string;
  moneda: string;
  tipo_cambio: string | null;
  subtotal: string;
  descuento: string | null;
  total: string;
  iva_amount: string | null;
  retencion_iva_amount: string | null;
  retencion_isr_amount: string | null;
  iva: string;
  rfc_emisor: string;
  nombre_emisor: string;
  rfc_receptor: string;
  nombre_receptor: string;
  valido: boolean;
  pending_tax_detail: number | string;
  forma_pago: string | null;
  uso_iva: 'gravado' | 'exento' | null;
  acto_5c: boolean;
}

export const toDoc = (r: DocRecord): ReportDoc => ({
  id: r.id,
  uuid: r.uuid,
  side: r.side,
  tipoComprobante: r.tipo_comprobante,
  metodoPago: r.tipo,
  fecha: r.fecha,
  moneda: r.moneda,
  tipoCambio: r.tipo_cambio,
  subtotal: r.subtotal,
  descuento: r.descuento,
  total: r.total,
  ivaTrasladado: r.iva_amount,
  retencionIva: r.retencion_iva_amount,
  retencionIsr: r.retencion_isr_amount,
  ivaTasa: r.iva,
  ivaPorTasa: toPorTasa(r),
  rfcEmisor: r.rfc_emisor,
  nombreEmisor: r.nombre_emisor,
  rfcReceptor: r.rfc_receptor,
  nombreReceptor: r.nombre_receptor,
  valido: r.valido,
  documentos: 1,
  pendingTaxDetail: Number(r.pending_tax_detail),
  formaPago: r.forma_pago,
  usoIva: r.uso_iva,
  acto5c: r.acto_5c,
  ...toFacts(r),
});

async function all<T>(db: Executor, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/**
 * Income and expense CFDI of type I and E dated in the period, summed in the database (exact
 * numeric) by everything the computation tells apart: month, side, type, method, currency and rate,
 * counterparty, validity and how IVA by rate is known. Every figure is linear in the amounts, so a
 * group counts as its documents would one by one; an invalid document or a foreign one without a
 * rate stays alone, since the report names it. A year of 100,000 CFDI comes back as a few thousand rows.
 */
async function documents(db: Executor, r: ReportRange): Promise<ReportDoc[]> {
  const sums = [
    'subtotal',
    'descuento',
    'total',
    'iva_amount',
    'retencion_iva_amount',
    'retencion_isr_amount',
    ...BY_RATE,
  ]
    .map((col) => `sum(c.${col})::text as ${col}`)
    .join(', ');
  const rows = await all<DocRecord & { documentos: string }>(
    db,
    sql`select min(c.id) as id, min(c.uuid) as uuid, c.side, c.tipo_comprobante, c.tipo, min(c.fecha) as fecha,
          c.moneda, c.tipo_cambio::text as tipo_cambio, ${sql.raw(sums)}, max(c.iva)::text as iva,
          c.rfc_emisor, max(c.nombre_emisor) as nombre_emisor, c.rfc_receptor, max(c.nombre_receptor) as nombre_receptor,
          c.forma_pago, c.uso_iva, c.acto_5c, ${sql.raw(factSums('c'))}, ${sql.raw(VALIDO('c'))} as valido, count(*) as documentos,
          count(*) filter (where ${sql.raw(PENDING_DETAIL('c'))}) as pending_tax_detail
        from cfdis c
        where c.profile_id = ${r.profileId} and c.side in ('income', 'expense')
          and c.tipo_comprobante in ('I', 'E') and c.fecha >= ${r.from} and c.fecha < ${r.to}
          and ${sql.raw(countsIn('c'))}
        group by left(c.fecha, 7), c.side, c.tipo_comprobante, c.tipo, c.moneda, c.tipo_cambio, c.rfc_emisor,
          c.rfc_receptor, ${sql.raw(VALIDO('c'))}, c.base_16 is null, case when c.base_16 is null then c.iva end,
          -- An expense paid in cash is judged on its own total (LIVA 5-I): never summed with others.
          c.forma_pago, case when c.side = 'expense' and c.forma_pago = '01' then c.id end, c.uso_iva, c.acto_5c,
          case when not ${sql.raw(VALIDO('c'))} or (c.moneda not in ('MXN', 'XXX') and coalesce(c.tipo_cambio, 0) <= 0)
            then c.id end`,
  );
  return rows.map((row) => ({ ...toDoc(row), documentos: Number(row.documentos) }));
}

type PaymentRecord = Partial<DocRecord> & {
  tipo_cambio_p: string | null;
  dr_taxes: boolean | null;
  retencion_iva: string | null;
  retencion_isr: string | null;
  source: 'rep' | 'manual';
  ref: string;
  related_uuid: string;
  pay_side: 'income' | 'expense';
  rep_rfc_emisor: string | null;
  fecha_pago: string;
  moneda_p: string;
  equivalencia_dr: string | null;
  importe: string;
  moneda_dr: string;
  rep_pending_tax_detail: boolean;
  forma_pago_p: string | null;
  rep_defects: string[] | null;
};

/** Complement applications and manual payments dated in the period, each with the invoice it pays (when present). */
export async function payments(db: Executor, r: ReportRange): Promise<ReportPayment[]> {
  const rows = await all<PaymentRecord>(
    db,
    sql`select 'rep' as source, rep.uuid as ref, pa.related_uuid, rep.side as pay_side,
               rep.rfc_emisor as rep_rfc_emisor, pa.fecha_pago, pa.moneda_p,
               pa.equivalencia_dr::text as equivalencia_dr, pa.imp_pagado::text as importe, pa.moneda_dr,
               pa.tipo_cambio_p::text as tipo_cambio_p, pa.dr_taxes, pa.retencion_iva::text as retencion_iva,
               pa.retencion_isr::text as retencion_isr, ${sql.raw(PENDING_DETAIL('rep'))} as rep_pending_tax_detail,
               pa.forma_pago as forma_pago_p,
               ${sql.raw(byRate('pa', 'dr_'))},
               (select jsonb_agg(w) from jsonb_array_elements_text(inv.payment_warnings) w
                where w like 'complemento ' || rep.uuid || ' (parcialidad ' || pa.num_parcialidad || ') defectuoso%') as rep_defects,
               ${docColumns('inv')}
        from payment_applications pa
        join cfdis rep on rep.id = pa.rep_cfdi_id
        left join cfdis inv on inv.profile_id = pa.profile_id and inv.uuid = pa.related_uuid
        where pa.profile_id = ${r.profileId} and pa.fecha_pago >= ${r.from} and pa.fecha_pago < ${r.to}
          and ${sql.raw(countsIn('rep'))} and (inv.id is null or ${sql.raw(countsIn('inv'))})
        union all
        select 'manual', inv.uuid, inv.uuid, inv.side, null, mp.fecha_pago, mp.moneda_pago,
               null, mp.monto::text, inv.moneda, null, false, null, null, false, mp.forma_pago,
               ${sql.raw(BY_RATE.map(() => 'null').join(', '))}, null,
               ${docColumns('inv')}
        from cfdis inv
        join manual_payments mp on mp.cfdi_id = inv.id
        where inv.profile_id = ${r.profileId} and inv.tipo = 'PPD'
          and mp.fecha_pago >= ${r.from} and mp.fecha_pago < ${r.to} and ${sql.raw(countsIn('inv'))}`,
  );
  return rows.map((p) => ({
    source: p.source,
    ref: p.ref,
    side: p.pay_side,
    relatedUuid: p.related_uuid,
    rfcEmisor: p.rep_rfc_emisor,
    fechaPago: p.fecha_pago,
    monedaP: p.moneda_p,
    tipoCambioP: p.tipo_cambio_p,
    equivalenciaDr: p.equivalencia_dr,
    importe: p.importe,
    monedaDr: p.moneda_dr,
    impuestosDr: p.dr_taxes
      ? { retencionIva: p.retencion_iva, retencionIsr: p.retencion_isr, porTasa: toPorTasa(p, 'dr_')! }
      : null,
    repPendingTaxDetail: p.rep_pending_tax_detail,
    defectos: p.rep_defects ?? [],
    invoice: p.id ? toDoc(p as DocRecord) : null,
    formaPago: p.forma_pago_p,
  }));
}

interface ManualRecord {
  id: string;
  is_paid: boolean;
  payment_date: string | null;
  rfc_emisor: string | null;
  nombre_emisor: string | null;
  fecha: string;
  subtotal: string;
  iva_amount: string;
  total: string;
  iva: string;
  uuid_cfdi: string | null;
  pedimento: string | null;
  proveedor_extranjero_digital: boolean;
  forma_pago: string | null;
  uso_iva: 'gravado' | 'exento' | null;
}

/** Manual expenses dated or paid in the period. */
export async function manualExpenses(db: Executor, r: ReportRange): Promise<ReportManualExpense[]> {
  const rows = await all<ManualRecord>(
    db,
    sql`select id, fecha, subtotal::text as subtotal, iva_amount::text as iva_amount, total::text as total,
               iva::text as iva, is_paid, payment_date, rfc_emisor, nombre_emisor,
               uuid_cfdi, pedimento, proveedor_extranjero_digital, forma_pago, uso_iva
        from manual_expenses
        where profile_id = ${r.profileId}
          and ((fecha >= ${r.from} and fecha < ${r.to})
            or (is_paid and payment_date >= ${r.from} and payment_date < ${r.to}))`,
  );
  return rows.map((e) => ({
    id: e.id,
    fecha: e.fecha,
    subtotal: e.subtotal,
    ivaAmount: e.iva_amount,
    total: e.total,
    ivaTasa: e.iva,
    isPaid: e.is_paid,
    paymentDate: e.payment_date,
    rfcEmisor: e.rfc_emisor,
    nombreEmisor: e.nombre_emisor,
    uuidCfdi: e.uuid_cfdi,
    pedimento: e.pedimento,
    proveedorExtranjeroDigital: e.proveedor_extranjero_digital,
    formaPago: e.forma_pago,
    usoIva: e.uso_iva,
  }));
}

type PendingRecord = Pick<
  DocRecord,
  | 'uuid'
  | 'side'
  | 'fecha'
  | 'moneda'
  | 'tipo_cambio'
  | 'total'
  | 'rfc_emisor'
  | 'nombre_emisor'
  | 'rfc_receptor'
  | 'nombre_receptor'
  | 'valido'
> & { abonos: Array<[string, string, string | null, string[] | null]> | null };

/**
 * PPD invoices that may have a balance at some month's end of the period (dated before its end and
 * not settled before it began: a credit note dated in the period can still lower one), each with
 * what lowered its balance up to the period's end: payments in its currency and credit notes. One
 * statement, so the invoices are picked once.
 */
async function pending(db: Executor, r: ReportRange): Promise<PendingDoc[]> {
  const rows = await all<PendingRecord>(
    db,
    sql`with ppd as materialized (
          select inv.id, inv.profile_id, inv.uuid, inv.side, inv.fecha, inv.moneda, inv.tipo_cambio,
            inv.total, inv.rfc_emisor, inv.nombre_emisor, inv.rfc_receptor, inv.nombre_receptor,
            ${sql.raw(VALIDO('inv'))} as valido
          from cfdis inv
          where inv.profile_id = ${r.profileId} and inv.tipo = 'PPD' and inv.tipo_comprobante = 'I'
            and inv.fecha < ${r.to} and ${sql.raw(countsIn('inv'))}
            and not (coalesce(inv.is_paid, false) and inv.payment_date < ${r.from}
              and not exists (
                select 1 from cfdi_relations cr join cfdis n on n.id = cr.cfdi_id
                where cr.profile_id = inv.profile_id and cr.related_uuid = inv.uuid
                  and cr.tipo_relacion in ${sql.raw(NOTE_RELATIONS)}
                  and n.tipo_comprobante = 'E' and n.fecha >= ${r.from} and ${sql.raw(countsIn('n'))}))
        ), abonos as (
          select ppd.id as doc_id, pa.fecha_pago as fecha, pa.imp_pagado::text as importe,
            null::text as nota, null::jsonb as relacionados
          from ppd
          join payment_applications pa on pa.profile_id = ppd.profile_id and pa.related_uuid = ppd.uuid
          join cfdis rep on rep.id = pa.rep_cfdi_id and rep.rfc_emisor = ppd.rfc_emisor
            and ${sql.raw(countsIn('rep'))}
          where pa.fecha_pago < ${r.to} and pa.moneda_dr = ppd.moneda
          union all
          select ppd.id, mp.fecha_pago, mp.monto::text, null, null
          from ppd join manual_payments mp on mp.cfdi_id = ppd.id
          where mp.fecha_pago < ${r.to} and mp.moneda_pago = ppd.moneda
          union all
          select ppd.id, n.fecha, n.total::text, n.uuid,
            (select jsonb_agg(u) from jsonb_array_elements(n.facts->'relacionados') g,
               jsonb_array_elements_text(g->'uuids') u
             where g->>'tipoRelacion' in ${sql.raw(NOTE_RELATIONS)})
          from ppd
          join cfdi_relations cr on cr.profile_id = ppd.profile_id and cr.related_uuid = ppd.uuid
            and cr.tipo_relacion in ${sql.raw(NOTE_RELATIONS)}
          join cfdis n on n.id = cr.cfdi_id and n.tipo_comprobante = 'E' and n.moneda = ppd.moneda
            and ${sql.raw(countsIn('n'))}
          where n.fecha < ${r.to}
        )
        select ppd.uuid, ppd.side, ppd.fecha, ppd.moneda, ppd.tipo_cambio::text as tipo_cambio,
          ppd.total::text as total, ppd.rfc_emisor, ppd.nombre_emisor, ppd.rfc_receptor, ppd.nombre_receptor,
          ppd.valido, a.abonos
        from ppd
        left join (select doc_id, json_agg(json_build_array(fecha, importe, nota, relacionados)) as abonos
          from abonos group by doc_id) a
          on a.doc_id = ppd.id`,
  );
  return rows.map((d) => ({
    doc: {
      uuid: d.uuid,
      side: d.side,
      fecha: d.fecha,
      moneda: d.moneda,
      tipoCambio: d.tipo_cambio,
      total: d.total,
      rfcEmisor: d.rfc_emisor,
      nombreEmisor: d.nombre_emisor,
      rfcReceptor: d.rfc_receptor,
      nombreReceptor: d.nombre_receptor,
      valido: d.valido,
    },
    abonos: (d.abonos ?? []).map(([fecha, importe, nota, relacionados]) =>
      nota ? { fecha, importe, nota: { uuid: nota, relacionados } } : { fecha, importe },
    ),
  }));
}

const NOMINA_SUMS = [
  ['percepcionesGravadas', 'percepciones_gravadas'],
  ['percepcionesExentas', 'percepciones_exentas'],
  ['totalDeducciones', 'deducciones'],
  ['totalOtrosPagos', 'otros_pagos'],
  ['subsidioCausado', 'subsidio_causado'],
  ['totalImpuestosRetenidos', 'isr_retenido'],
] as const;

type NominaRecord = Record<(typeof NOMINA_SUMS)[number][1], string> & {
  side: 'income' | 'expense';
  month: string;
  documentos: string;
};

/**
 * Nómina 1.2 totals of the valid N CFDI paid in the period (by the complement's FechaPago), per
 * month and side: issued by the profile (expense: it is the employer) or received (income: its salary).
 */
async function nomina(db: Executor, r: ReportRange): Promise<ReportNomina[]> {
  const sums = NOMINA_SUMS.map(
    ([k, name]) => `sum((c.facts->'nomina'->>'${k}')::numeric)::text as ${name}`,
  ).join(', ');
  const rows = await all<NominaRecord>(
    db,
    sql`select c.side, left(c.facts->'nomina'->>'fechaPago', 7) as month, count(*) as documentos, ${sql.raw(sums)}
        from cfdis c
        where c.profile_id = ${r.profileId} and c.tipo_comprobante = 'N' and ${sql.raw(VALIDO('c'))}
          and c.facts->'nomina'->>'fechaPago' >= ${r.from} and c.facts->'nomina'->>'fechaPago' < ${r.to}
        group by 1, 2`,
  );
  return rows.map((n) => ({
    side: n.side,
    month: n.month,
    documentos: Number(n.documentos),
    percepcionesGravadas: n.percepciones_gravadas,
    percepcionesExentas: n.percepciones_exentas,
    deducciones: n.deducciones,
    otrosPagos: n.otros_pagos,
    subsidioCausado: n.subsidio_causado,
    isrRetenido: n.isr_retenido,
  }));
}

// Credit notes and the invoices they relate to (tax-rules §2): whether a note moves cash, and in
// which month, depends on its invoices' balances at its date, so each note comes alone, with them.

type NoteRecord = DocRecord & {
  forma_pago: string | null;
  relacionados: Array<{ tipoRelacion: string; uuids: string[] }>;
  invoices: NotedInvoice[];
};

/**
 * E CFDI dated in the period, and those dated after its start about an invoice dated before its
 * end (a 07 note lowers a PUE invoice's cash on the invoice's date; a refund on an invoice with IVA
 * withheld lowers the month it was collected). Each with its relations in list order (from its
 * facts; before the back-fill, from cfdi_relations) and its invoices' dated histories.
 */
export async function notes(db: Executor, r: ReportRange): Promise<ReportNote[]> {
  const rows = await all<NoteRecord>(
    db,
    sql`with n as materialized (
          select c.* from cfdis c
          where c.profile_id = ${r.profileId} and c.side in ('income', 'expense') and c.tipo_comprobante = 'E'
            and c.fecha >= ${r.from}
            and (c.fecha < ${r.to} or exists (
              select 1 from cfdi_relations cr
              join cfdis inv on inv.profile_id = cr.profile_id and inv.uuid = cr.related_uuid
              where cr.cfdi_id = c.id and cr.tipo_relacion in ${sql.raw(NOTE_RELATIONS)} and inv.fecha < ${r.to}))
        )
        select ${docColumns('n')}, n.forma_pago,
          coalesce(n.facts->'relacionados', (
            select coalesce(jsonb_agg(jsonb_build_object('tipoRelacion', cr.tipo_relacion,
              'uuids', jsonb_build_array(cr.related_uuid)) order by cr.tipo_relacion, cr.related_uuid), '[]'::jsonb)
            from cfdi_relations cr where cr.cfdi_id = n.id)) as relacionados,
          (select coalesce(json_agg(json_build_object(
              'uuid', inv.uuid, 'tipoComprobante', inv.tipo_comprobante, 'metodoPago', inv.tipo,
              'fecha', inv.fecha, 'moneda', inv.moneda, 'total', inv.total::text,
              'retencionIva', inv.retencion_iva_amount::text, 'valido', ${sql.raw(VALIDO('inv'))},
              'history', (select coalesce(json_agg(h order by h.fecha), '[]') from (
                select pa.fecha_pago as fecha, pa.imp_pagado::text as importe, 'pago' as kind, rep.uuid as ref,
                  null::text as "tipoRelacion", null::jsonb as related
                from payment_applications pa
                join cfdis rep on rep.id = pa.rep_cfdi_id and rep.rfc_emisor = inv.rfc_emisor
                where pa.profile_id = inv.profile_id and pa.related_uuid = inv.uuid and pa.moneda_dr = inv.moneda
                union all
                select mp.fecha_pago, mp.monto::text, 'pago', inv.uuid, null, null
                from manual_payments mp where mp.cfdi_id = inv.id and mp.moneda_pago = inv.moneda
                union all
                select o.fecha, o.total::text, 'nota', o.uuid, cr.tipo_relacion,
                  (select jsonb_agg(u) from jsonb_array_elements(o.facts->'relacionados') g,
                     jsonb_array_elements_text(g->'uuids') u
                   where g->>'tipoRelacion' in ${sql.raw(NOTE_RELATIONS)})
                from cfdi_relations cr
                join cfdis o on o.id = cr.cfdi_id and o.tipo_comprobante = 'E' and o.moneda = inv.moneda
                where cr.profile_id = inv.profile_id and cr.related_uuid = inv.uuid
                  and cr.tipo_relacion in ${sql.raw(NOTE_RELATIONS)}) h)
            )), '[]')
           from cfdis inv
           where inv.profile_id = n.profile_id and inv.side = n.side and inv.tipo_comprobante = 'I'
             and inv.uuid in (
               -- Its invoices and those of the notes naming them (a shared note's parts need them).
               select other.related_uuid from cfdi_relations cr
               join cfdi_relations named on named.profile_id = cr.profile_id and named.related_uuid = cr.related_uuid
                 and named.tipo_relacion in ${sql.raw(NOTE_RELATIONS)}
               join cfdi_relations other on other.cfdi_id = named.cfdi_id
                 and other.tipo_relacion in ${sql.raw(NOTE_RELATIONS)}
               where cr.cfdi_id = n.id and cr.tipo_relacion in ${sql.raw(NOTE_RELATIONS)})) as invoices
        from n`,
  );
  const relations = new Set(['01', '03', '07']);
  return rows.map((row) => ({
    doc: toDoc(row),
    formaPago: row.forma_pago,
    relacionados: row.relacionados
      .filter((g) => relations.has(g.tipoRelacion))
      .flatMap((g) => g.uuids.map((uuid) => ({ tipoRelacion: g.tipoRelacion, uuid }))),
    invoices: row.invoices,
  }));
}

/** Everything a report over the period needs, in six statements. */
export async function reportRows(db: Executor, r: ReportRange): Promise<ReportRows> {
  const [docs, pays, manual, pend, notas, nom] = await Promise.all([
    documents(db, r),
    payments(db, r),
    manualExpenses(db, r),
    pending(db, r),
    notes(db, r),
    nomina(db, r),
  ]);
  return { docs, payments: pays, manualExpenses: manual, pending: pend, notes: notas, nomina: nom };
}
