import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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
import { profiles } from './profiles';
import { money, timestamps, users } from './users';

/** One accounting month of a profile; manual expenses are recorded into an open one. */
export const accountingPeriods = pgTable(
  'accounting_periods',
  {
    id: text('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    anio: smallint('anio').notNull(),
    mes: smallint('mes').notNull(),
    estado: text('estado', { enum: ['ABIERTO', 'CERRADO'] })
      .notNull()
      .default('ABIERTO'),
    ...timestamps,
  },
  (t) => [uniqueIndex('accounting_periods_profile_month_uq').on(t.profileId, t.anio, t.mes)],
);

/** An expense typed in by the user (no CFDI behind it). */
export const manualExpenses = pgTable(
  'manual_expenses',
  {
    id: text('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    periodId: text('period_id')
      .notNull()
      .references(() => accountingPeriods.id, { onDelete: 'cascade' }),
    /** The date as given (YYYY-MM-DD); mes/año come from it, never through a time zone. */
    fecha: text('fecha').notNull(),
    mes: smallint('mes').notNull(),
    anio: smallint('anio').notNull(),
    subtotal: money('subtotal').notNull(),
    ivaAmount: money('iva_amount').notNull(),
    total: money('total').notNull(),
    iva: numeric('iva', { precision: 9, scale: 2, mode: 'number' }).notNull(),
    concepto: text('concepto').notNull(),
    categoria: text('categoria'),
    /** Paid, and when (YYYY-MM-DD, required when paid): the cash-basis reports count it then. */
    isPaid: boolean('is_paid').notNull().default(false),
    paymentDate: text('payment_date'),
    /** The supplier, when known (an RFC validated like a profile's counterpart). */
    rfcEmisor: text('rfc_emisor'),
    nombreEmisor: text('nombre_emisor'),
    /** DIOT: 05 for a foreign supplier (with its tax id and ISO 3166 alpha-3 country); null is national. */
    tipoTercero: text('tipo_tercero', { enum: ['04', '05'] }),
    idFiscal: text('id_fiscal'),
    pais: text('pais'),
    /**
     * What supports crediting its IVA (LIVA 5-II, docs/iva-isr.md#creditable-iva): the UUID of its
     * CFDI, an import's pedimento, or a foreign digital service registered under LIVA 18-D.
     */
    uuidCfdi: text('uuid_cfdi'),
    pedimento: text('pedimento'),
    proveedorExtranjeroDigital: boolean('proveedor_extranjero_digital').notNull().default(false),
    /** c_FormaPago of its payment (01 cash: LIVA 5-I via LISR 27-III). */
    formaPago: text('forma_pago'),
    /** Used only for taxed or only for exempt acts (LIVA 5-V); NULL: both, credited in proportion. */
    usoIva: text('uso_iva', { enum: ['gravado', 'exento'] }),
    ...timestamps,
  },
  (t) => [
    index('manual_expenses_profile_list_idx').on(t.profileId, t.fecha.desc(), t.id.desc()),
    index('manual_expenses_user_list_idx').on(t.userId, t.fecha.desc(), t.id.desc()),
    check('manual_expenses_paid_has_date', sql`not ${t.isPaid} or ${t.paymentDate} is not null`),
  ],
);

/** A replayable answer for a retried POST carrying an Idempotency-Key (kept 24 h). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Which operation and body the key was first used with. */
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    /** Response headers a replay repeats (the quota headers of the first answer). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
