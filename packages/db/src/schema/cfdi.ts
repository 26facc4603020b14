import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tsvector } from './catalogs';
import { profiles } from './profiles';
import { money, timestamps, users } from './users';

/** The contract's Validacion, as computed at import. */
export interface Validacion {
  rfcVerificado: boolean;
  regimenFiscalVerificado: boolean;
  uuidDuplicado: boolean;
  advertencias: string[];
  errores: string[];
  valido: boolean;
}

/**
 * Transferred taxes by kind (docs/cfdi.md#taxes-by-rate), in the currency of the document (of the
 * paid invoice, monedaDR, on a payment application), unrounded: base and IVA at 16 % and 8 %, the
 * base at 0 %, the exempt base, and IEPS.
 */
const taxesByRate = () => ({
  base16: money('base_16'),
  iva16: money('iva_16'),
  base8: money('base_8'),
  iva8: money('iva_8'),
  base0: money('base_0'),
  baseExenta: money('base_exenta'),
  ieps: money('ieps'),
});

/** A CFDI's status before SAT, as far as Folio knows (docs/sat-status.md). */
export const ESTATUS_SAT = ['vigente', 'cancelado', 'desconocido'] as const;
export type EstatusSat = (typeof ESTATUS_SAT)[number];
/** Who said it: SAT's metadata file or status service, the user, or a substitute CFDI (TipoRelacion 04). */
export const ESTATUS_FUENTES = ['metadata', 'consulta', 'usuario', 'sustitucion'] as const;
export type EstatusFuente = (typeof ESTATUS_FUENTES)[number];

/**
 * What `taxes_version` says once the back-fill or the import derived a row's tax detail: 1 the
 * taxes by rate (issue 17), 2 also `lugar_expedicion` and `facts` (issue 24). Rows below it are
 * derived again from their XML (docs/cfdi.md#facts).
 */
export const TAXES_VERSION = 2;

/**
 * Rows whose derivation is older than TAXES_VERSION (NULL: before any); 0 marks an unreadable XML,
 * never retried. A constant in the SQL text, so the partial index below matches the back-fill's query.
 */
export const pendingTaxes = (version: AnyPgColumn) =>
  sql`(${version} is null or (${version} > 0 and ${version} < ${sql.raw(String(TAXES_VERSION))}))`;

/**
 * Every CFDI filed for a profile: income (the profile issued it) or expense (it received it),
 * payment complements included. The contract's Invoice/Expense fields are kept ready to list; the
 * validation, payment status and payment records are recomputed on every change that affects them.
 */
export const cfdis = pgTable(
  'cfdis',
  {
    id: text('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** Owner, denormalised so "all my invoices" is one index range. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    side: text('side', { enum: ['income', 'expense'] }).notNull(),
    uuid: text('uuid').notNull(),
    version: text('version').notNull(),
    tipoComprobante: text('tipo_comprobante').notNull(),
    tipo: text('tipo', { enum: ['PUE', 'PPD', 'COMPLEMENTO_PAGO'] }).notNull(),
    /** The CFDI `Fecha` as written (Mexico local time); ISO text sorts correctly. */
    fecha: text('fecha').notNull(),
    mes: smallint('mes').notNull(),
    anio: smallint('anio').notNull(),
    moneda: text('moneda').notNull(),
    tipoCambio: money('tipo_cambio'),
    metodoPago: text('metodo_pago'),
    formaPago: text('forma_pago'),
    subtotal: money('subtotal').notNull(),
    descuento: money('descuento'),
    total: money('total').notNull(),
    iva: numeric('iva', { precision: 7, scale: 2, mode: 'number' }).notNull(),
    ivaAmount: money('iva_amount'),
    retencionIvaAmount: money('retencion_iva_amount'),
    retencionIsrAmount: money('retencion_isr_amount'),
    ...taxesByRate(),
    /**
     * The derivation the tax detail (taxesByRate here, and the payment applications' taxes of a REP)
     * comes from: NULL on rows stored before it existed, until the back-fill re-reads their XML.
     */
    taxesVersion: smallint('taxes_version'),
    /** Comprobante@LugarExpedicion: the issuer's postal code (DIOT's región fronteriza). */
    lugarExpedicion: text('lugar_expedicion'),
    /**
     * What the tax reports need beyond the amounts (`CfdiFacts` of packages/cfdi, docs/cfdi.md#facts):
     * relations in list order, base by ObjetoImp, concepts by ClaveProdServ, withholdings by rate,
     * Nómina totals. NULL until derived (taxes_version < 2).
     */
    facts: jsonb('facts').$type<object>(),
    /**
     * The user's word for the IVA proportion (docs/iva-isr.md): a received CFDI used only for taxed
     * or only for exempt acts (LIVA 5-V; NULL: both, prorated), an issued one among the acts of
     * LIVA 5-C (left out of the proportion).
     */
    usoIva: text('uso_iva', { enum: ['gravado', 'exento'] }),
    acto5c: boolean('acto_5c').notNull().default(false),
    rfcEmisor: text('rfc_emisor').notNull(),
    nombreEmisor: text('nombre_emisor').notNull(),
    regimenFiscalEmisor: text('regimen_fiscal_emisor'),
    rfcReceptor: text('rfc_receptor').notNull(),
    nombreReceptor: text('nombre_receptor').notNull(),
    regimenFiscalReceptor: text('regimen_fiscal_receptor'),
    concepto: text('concepto'),
    complementoPago: jsonb('complemento_pago').$type<object>(),
    validacion: jsonb('validacion').$type<Validacion>().notNull(),
    estadoPago: jsonb('estado_pago').$type<object>(),
    /** Findings of the last payment-status computation (gaps, overpayment…), shown with the validation's. */
    paymentWarnings: jsonb('payment_warnings').$type<string[]>().notNull().default([]),
    pagos: jsonb('pagos').$type<object[]>().notNull().default([]),
    isPaid: boolean('is_paid'),
    paymentDate: text('payment_date'),
    /** SAT status (docs/sat-status.md): `desconocido` until a source says; a cancelled CFDI counts nowhere. */
    estatusSat: text('estatus_sat', { enum: ESTATUS_SAT }).notNull().default('desconocido'),
    /** FechaCancelacion as the source gives it, Mexico local time ('YYYY-MM-DDTHH:mm:ss' or a date). */
    fechaCancelacion: text('fecha_cancelacion'),
    estatusFuente: text('estatus_fuente', { enum: ESTATUS_FUENTES }),
    /** When that source said it (the upload of the metadata file, the user's mark, the substitute's import). */
    estatusFecha: timestamp('estatus_fecha', { withTimezone: true, mode: 'date' }),
    /** What a listing's search finds by word (full text): the words of the RFCs, names and concept, as written, accents folded. */
    searchWords: tsvector('search_words').generatedAlwaysAs(
      sql`to_tsvector('es_plain'::regconfig, rfc_emisor || ' ' || nombre_emisor || ' ' || rfc_receptor || ' ' || nombre_receptor || ' ' || coalesce(concepto, ''))`,
    ),
    /**
     * The other party's RFC: the receiver of an issued CFDI, the issuer of a received one. A search's
     * fast path reads a counterparty's rows newest first by it (`cfdis_counterparty_idx`, search.ts).
     */
    counterpartyRfc: text('counterparty_rfc').generatedAlwaysAs(
      sql`case when side = 'income' then rfc_receptor else rfc_emisor end`,
    ),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('cfdis_profile_uuid_uq').on(t.profileId, t.uuid),
    index('cfdis_profile_list_idx').on(t.profileId, t.side, t.fecha.desc(), t.id.desc()),
    index('cfdis_profile_month_idx').on(t.profileId, t.side, t.anio, t.mes, t.fecha.desc(), t.id.desc()),
    index('cfdis_user_list_idx').on(t.userId, t.side, t.fecha.desc(), t.id.desc()),
    // "Does another profile of this account hold the UUID?" on every import.
    index('cfdis_user_uuid_idx').on(t.userId, t.uuid),
    // A listing's search (docs/contract.md#search): the words, the UUID and the UUID's last block,
    // each key with the owner in front ('<user id>:<word>', '<user id>:#<uuid>', f_search_keys), so
    // a word or a prefix reads that account's entries alone. The owner as a GIN column of its own
    // (btree_gin) made every search walk the posting list of all the account's rows: most of what a
    // search cost PostgreSQL on a large account (docs/benchmarks.md).
    index('cfdis_search_keys_idx').using('gin', sql`f_search_keys(${t.userId}, ${t.searchWords}, ${t.uuid})`),
    // A search's fast path: each candidate counterparty's matches newest first, counted index-only.
    index('cfdis_counterparty_idx').on(t.userId, t.side, t.counterpartyRfc, t.fecha.desc(), t.id.desc()),
    // Rows the back-fill still has to derive; empty once it ran, so the start-up check is free.
    index('cfdis_taxes_pending_idx').on(t.id).where(pendingTaxes(t.taxesVersion)),
    // Three of a tax report's statements (queries/reports.ts, sat-status.ts) want a few rows of a
    // profile: without these each read every row of it, one heap page a row (docs/benchmarks.md).
    // A report's PPD invoices that may still be open.
    index('cfdis_profile_ppd_idx')
      .on(t.profileId, t.fecha)
      .where(sql`${t.tipo} = 'PPD' and ${t.tipoComprobante} = 'I'`),
    // Its nómina, by the complement's FechaPago.
    index('cfdis_profile_nomina_idx')
      .on(t.profileId, sql`(${t.facts}->'nomina'->>'fechaPago')`)
      .where(sql`${t.tipoComprobante} = 'N'`),
    // Its SAT-status notices: the unverified counted index-only, the cancelled found.
    index('cfdis_profile_status_idx')
      .on(t.profileId, t.fecha, t.estatusSat)
      .where(sql`${t.estatusSat} <> 'vigente'`),
  ],
);

/** The file as uploaded, kept apart so listing rows stay narrow. */
export const cfdiXml = pgTable('cfdi_xml', {
  cfdiId: text('cfdi_id')
    .primaryKey()
    .references(() => cfdis.id, { onDelete: 'cascade' }),
  xml: text('xml').notNull(),
});

/**
 * One DoctoRelacionado of a payment complement: a payment applied to the invoice `related_uuid`.
 * No foreign key to that invoice: a complement imported first waits here until its invoice arrives.
 */
export const paymentApplications = pgTable(
  'payment_applications',
  {
    id: text('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    repCfdiId: text('rep_cfdi_id')
      .notNull()
      .references(() => cfdis.id, { onDelete: 'cascade' }),
    repUuid: text('rep_uuid').notNull(),
    relatedUuid: text('related_uuid').notNull(),
    numParcialidad: integer('num_parcialidad').notNull(),
    fechaPago: text('fecha_pago').notNull(),
    formaPago: text('forma_pago').notNull(),
    monedaP: text('moneda_p').notNull(),
    monto: money('monto'),
    numOperacion: text('num_operacion'),
    monedaDr: text('moneda_dr').notNull(),
    /** EquivalenciaDR (1.0: TipoCambioDR): units of moneda_dr per unit of moneda_p; SAT allows 10 decimals. */
    equivalenciaDr: numeric('equivalencia_dr', { precision: 22, scale: 10, mode: 'number' }),
    metodoPagoDr: text('metodo_pago_dr'),
    impSaldoAnt: money('imp_saldo_ant').notNull(),
    impPagado: money('imp_pagado').notNull(),
    impSaldoInsoluto: money('imp_saldo_insoluto').notNull(),
    /** Pago@TipoCambioP: MXN per unit of moneda_p (1 when the XML omits it). */
    tipoCambioP: money('tipo_cambio_p'),
    /**
     * Whether the complement states this document's taxes (Pagos 2.0 ImpuestosDR): then the tax
     * columns below hold them, in moneda_dr; false (Pagos 1.0, no ImpuestosDR) leaves them NULL and
     * a report takes the invoice's taxes in proportion imp_pagado / total. NULL until back-filled.
     */
    drTaxes: boolean('dr_taxes'),
    ...taxesByRate(),
    retencionIva: money('retencion_iva'),
    retencionIsr: money('retencion_isr'),
  },
  (t) => [
    index('payment_applications_related_idx').on(t.profileId, t.relatedUuid),
    // The back-fill updates a REP's applications by this key (applicationsFrom keeps one per pair).
    index('payment_applications_rep_idx').on(t.repCfdiId),
  ],
);

/**
 * One CfdiRelacionado of a CFDI (TipoRelacion + the related UUID): a credit note's (E, 01) invoice
 * is found here. No foreign key to the related CFDI: a note imported first waits for its invoice.
 */
export const cfdiRelations = pgTable(
  'cfdi_relations',
  {
    cfdiId: text('cfdi_id')
      .notNull()
      .references(() => cfdis.id, { onDelete: 'cascade' }),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    tipoRelacion: text('tipo_relacion').notNull(),
    relatedUuid: text('related_uuid').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cfdiId, t.tipoRelacion, t.relatedUuid] }),
    index('cfdi_relations_related_idx').on(t.profileId, t.relatedUuid),
  ],
);

/** A payment recorded by hand against an invoice (cash, a transfer without a complement yet). */
export const manualPayments = pgTable(
  'manual_payments',
  {
    id: text('id').primaryKey(),
    cfdiId: text('cfdi_id')
      .notNull()
      .references(() => cfdis.id, { onDelete: 'cascade' }),
    fechaPago: text('fecha_pago').notNull(),
    formaPago: text('forma_pago').notNull(),
    monedaPago: text('moneda_pago').notNull(),
    monto: money('monto').notNull(),
    numOperacion: text('num_operacion'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('manual_payments_cfdi_idx').on(t.cfdiId)],
);
