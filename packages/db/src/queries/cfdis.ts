import {
  type AnyColumn,
  and,
  asc,
  count,
  eq,
  getTableColumns,
  inArray,
  ne,
  notInArray,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '../client';
import { prepared } from '../prepared';
import { cfdiRelations, cfdis, cfdiXml, manualPayments, paymentApplications, profiles } from '../schema';
import { countsInReports } from './counts-in-reports';
import { inList } from './in-list';
import { insertFromRecords, updateFromRecords } from './recordset';

export type CfdiRow = Omit<typeof cfdis.$inferSelect, 'searchWords'>;

/** What an invoice shows, and so what a listing reads: reading every column cost more (docs/benchmarks.md). */
const LISTED_FIELDS = [
  'id',
  'profileId',
  'uuid',
  'fecha',
  'mes',
  'anio',
  'total',
  'subtotal',
  'iva',
  'ivaAmount',
  'retencionIvaAmount',
  'retencionIsrAmount',
  'tipo',
  'tipoComprobante',
  'moneda',
  'tipoCambio',
  'rfcEmisor',
  'nombreEmisor',
  'regimenFiscalEmisor',
  'rfcReceptor',
  'nombreReceptor',
  'regimenFiscalReceptor',
  'concepto',
  'pagos',
  'complementoPago',
  'validacion',
  'paymentWarnings',
  'estadoPago',
  'estatusSat',
  'fechaCancelacion',
  'estatusFuente',
  'estatusFecha',
  'createdAt',
  'updatedAt',
] as const;
const COLUMNS = getTableColumns(cfdis);
/** A select of these columns of cfdis. */
const columnsOf = <K extends keyof typeof COLUMNS>(fields: readonly K[]) =>
  Object.fromEntries(fields.map((k) => [k, COLUMNS[k]])) as Pick<typeof COLUMNS, K>;
const LISTED = columnsOf(LISTED_FIELDS);
export type ListedCfdi = Pick<CfdiRow, keyof typeof LISTED>;
export type NewCfdi = typeof cfdis.$inferInsert;
export type NewApplication = typeof paymentApplications.$inferInsert;
export type ApplicationRow = typeof paymentApplications.$inferSelect & {
  /** The parties of the complement the application comes from. */
  rep: { rfcEmisor: string; rfcReceptor: string };
};
export type ManualPaymentRow = typeof manualPayments.$inferSelect;
/** The ids of the profile's CFDI with these UUIDs, by UUID. */
export async function cfdiIdsByUuids(
  db: Executor,
  profileId: string,
  uuids: string[],
): Promise<Map<string, string>> {
  if (!uuids.length) return new Map();
  const rows = await db
    .select({ id: cfdis.id, uuid: cfdis.uuid })
    .from(cfdis)
    .where(and(eq(cfdis.profileId, profileId), inList(cfdis.uuid, uuids)));
  return new Map(rows.map((r) => [r.uuid, r.id]));
}

/** Which of these UUIDs another profile of the same user already holds. */
export async function uuidsInOtherProfiles(
  db: Executor,
  userId: string,
  profileId: string,
  uuids: string[],
): Promise<Set<string>> {
  if (!uuids.length) return new Set();
  const rows = await db
    .selectDistinct({ uuid: cfdis.uuid })
    .from(cfdis)
    .where(and(eq(cfdis.userId, userId), inList(cfdis.uuid, uuids), ne(cfdis.profileId, profileId)));
  return new Set(rows.map((r) => r.uuid));
}

/**
 * Stores the CFDI (one profile's, distinct UUIDs) that the profile does not hold yet, in UUID order:
 * two concurrent imports then meet their common UUIDs in the same order and never deadlock. Returns
 * the rows stored; a UUID missing from the answer was a duplicate (the unique index decides, also
 * against a concurrent import).
 */
export function insertNewCfdis(tx: Tx, rows: NewCfdi[]): Promise<{ id: string; uuid: string }[]> {
  const sorted = [...rows].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
  return insertFromRecords(tx, cfdis, sorted, sql`on conflict do nothing returning id, uuid`);
}

/** Takes back CFDI stored in this transaction (before anything refers to them). */
export async function deleteCfdis(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length) await tx.delete(cfdis).where(inList(cfdis.id, ids));
}

/** The original XML of each stored CFDI. */
export async function insertCfdiXml(tx: Tx, rows: (typeof cfdiXml.$inferInsert)[]): Promise<void> {
  await insertFromRecords(tx, cfdiXml, rows);
}

export async function insertApplications(tx: Tx, rows: NewApplication[]): Promise<void> {
  await insertFromRecords(tx, paymentApplications, rows);
}

export function applicationsFor(
  db: Executor,
  profileId: string,
  relatedUuids: string[],
): Promise<ApplicationRow[]> {
  return db
    .select({
      ...getTableColumns(paymentApplications),
      rep: { rfcEmisor: cfdis.rfcEmisor, rfcReceptor: cfdis.rfcReceptor },
    })
    .from(paymentApplications)
    .innerJoin(cfdis, eq(cfdis.id, paymentApplications.repCfdiId))
    .where(
      and(
        eq(paymentApplications.profileId, profileId),
        inList(paymentApplications.relatedUuid, relatedUuids),
        // A cancelled complement's payments are no payments.
        countsInReports,
      ),
    )
    .orderBy(asc(paymentApplications.numParcialidad), asc(paymentApplications.fechaPago));
}

export async function insertRelations(tx: Tx, rows: (typeof cfdiRelations.$inferInsert)[]): Promise<void> {
  await insertFromRecords(tx, cfdiRelations, rows, sql`on conflict do nothing`);
}

/** The profile's credit notes (E) relating by TipoRelacion 01, 03 or 07 to these invoice UUIDs (tax-rules §3). */
export function creditNotesFor(db: Executor, profileId: string, relatedUuids: string[]) {
  return db
    .select({
      relatedUuid: cfdiRelations.relatedUuid,
      uuid: cfdis.uuid,
      fecha: cfdis.fecha,
      total: cfdis.total,
      moneda: cfdis.moneda,
      /** Its CfdiRelacionados groups in list order (facts; NULL until back-filled). */
      relacionados: sql<Array<{
        tipoRelacion: string;
        uuids: string[];
      }> | null>`${cfdis.facts}->'relacionados'`,
    })
    .from(cfdiRelations)
    .innerJoin(cfdis, eq(cfdis.id, cfdiRelations.cfdiId))
    .where(
      and(
        eq(cfdiRelations.profileId, profileId),
        inList(cfdiRelations.relatedUuid, relatedUuids),
        inArray(cfdiRelations.tipoRelacion, ['01', '03', '07']),
        eq(cfdis.tipoComprobante, 'E'),
        countsInReports,
      ),
    );
}

/**
 * These UUIDs and every other invoice named by a credit note (E; 01, 03, 07) that names one of
 * them: a note applied to several invoices in list order ties their balances (tax-rules §2).
 */
export async function withNoteSiblings(db: Executor, profileId: string, uuids: string[]): Promise<string[]> {
  if (!uuids.length) return uuids;
  const rows = await db
    .selectDistinct({ uuid: sql<string>`other.related_uuid` })
    .from(cfdiRelations)
    .innerJoin(cfdis, and(eq(cfdis.id, cfdiRelations.cfdiId), eq(cfdis.tipoComprobante, 'E')))
    .innerJoin(
      sql`cfdi_relations other`,
      sql`other.cfdi_id = ${cfdiRelations.cfdiId} and other.tipo_relacion in ('01', '03', '07')`,
    )
    .where(
      and(
        eq(cfdiRelations.profileId, profileId),
        inList(cfdiRelations.relatedUuid, uuids),
        inArray(cfdiRelations.tipoRelacion, ['01', '03', '07']),
      ),
    );
  return [...new Set([...uuids, ...rows.map((r) => r.uuid)])];
}

/** Adds findings to a CFDI's payment warnings, each once (a complement's, found from its invoices). */
export async function addPaymentWarnings(tx: Executor, id: string, warnings: string[]): Promise<void> {
  if (!warnings.length) return;
  await tx
    .update(cfdis)
    .set({
      paymentWarnings: sql`(select coalesce(jsonb_agg(distinct w), '[]'::jsonb) from jsonb_array_elements(${cfdis.paymentWarnings} || ${JSON.stringify(warnings)}::jsonb) as w)`,
    })
    .where(eq(cfdis.id, id));
}

export function manualPaymentsFor(db: Executor, cfdiIds: string[]): Promise<ManualPaymentRow[]> {
  return db
    .select()
    .from(manualPayments)
    .where(inList(manualPayments.cfdiId, cfdiIds))
    .orderBy(asc(manualPayments.fechaPago), asc(manualPayments.createdAt));
}

export async function insertManualPayment(tx: Tx, row: typeof manualPayments.$inferInsert): Promise<void> {
  await tx.insert(manualPayments).values(row);
}

/** What a payment-state refresh reads of an invoice: its amounts, parties and current state. */
const PAYABLE_FIELDS = [
  'id',
  'uuid',
  'total',
  'moneda',
  'metodoPago',
  'tipoComprobante',
  'fecha',
  'rfcEmisor',
  'rfcReceptor',
  'estadoPago',
  'pagos',
  'isPaid',
  'paymentDate',
  'paymentWarnings',
  // A nómina is paid on its complement's FechaPago (facts.nomina).
  'facts',
  'estatusSat',
] as const;
const PAYABLE = columnsOf(PAYABLE_FIELDS);
export type PayableRow = Pick<CfdiRow, (typeof PAYABLE_FIELDS)[number]>;

/**
 * The profile's CFDI with these UUIDs that can be paid: not payment complements, credit notes (E)
 * nor traslados (T), which have no payment status of their own.
 */
export function payableByUuids(db: Executor, profileId: string, uuids: string[]): Promise<PayableRow[]> {
  if (!uuids.length) return Promise.resolve([]);
  return db
    .select(PAYABLE)
    .from(cfdis)
    .where(
      and(
        eq(cfdis.profileId, profileId),
        inList(cfdis.uuid, uuids),
        ne(cfdis.tipo, 'COMPLEMENTO_PAGO'),
        notInArray(cfdis.tipoComprobante, ['E', 'T']),
      ),
    );
}

export type PaymentState = Pick<
  NewCfdi,
  'estadoPago' | 'pagos' | 'isPaid' | 'paymentDate' | 'paymentWarnings'
>;

/** Writes each invoice's recomputed payment state, one statement for all of them. */
export async function savePaymentStates(
  tx: Executor,
  rows: (PaymentState & { id: string })[],
): Promise<void> {
  const updatedAt = new Date();
  await updateFromRecords(
    tx,
    cfdis,
    ['id'],
    rows.map((r) => ({
      id: r.id,
      estadoPago: r.estadoPago ?? null,
      pagos: r.pagos,
      isPaid: r.isPaid ?? null,
      paymentDate: r.paymentDate ?? null,
      paymentWarnings: r.paymentWarnings,
      updatedAt,
    })),
  );
}

export async function findCfdi(db: Executor, id: string) {
  const [row] = await db
    .select({ cfdi: cfdis, profile: { id: profiles.id, nombre: profiles.nombre, rfc: profiles.rfc } })
    .from(cfdis)
    .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
    .where(eq(cfdis.id, id));
  return row;
}

export async function findCfdiXml(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await db.select({ xml: cfdiXml.xml }).from(cfdiXml).where(eq(cfdiXml.cfdiId, id));
  return row?.xml;
}

export interface CfdiListFilter {
  userId: string;
  side: 'income' | 'expense';
  profileId?: string;
  mes?: number;
  anio?: number;
  regimenFiscal?: string;
  tipo?: 'PUE' | 'PPD' | 'COMPLEMENTO_PAGO';
  /** TipoDeComprobante: I, E, P, T, N. */
  tipoComprobante?: string;
  estatusSat?: 'vigente' | 'cancelado' | 'desconocido';
  /**
   * Case- and accent-insensitive (docs/contract.md#search). Every word of the search (letters and
   * digits; anything else separates) is a word of the RFCs, names or concept, or the start of one
   * (a final s or es dropped, so a plural finds its singular); an RFC is one word, so an RFC
   * fragment matches from the RFC's start. One piece of hex digits and hyphens, a digit among them,
   * also matches the start of the UUID or of its last block.
   */
  search?: string;
  /** Set by `searchFilter` in place of `search`: the words as `to_tsquery` input, each a prefix. */
  words?: string;
  /** Set by `searchFilter` with `words` when the search may be a UUID fragment: its key as a tsquery. */
  uuidKey?: string;
}

/** A value bound at execution: listings are prepared statements, one per filter shape. */
export type Bound<T> = { [K in keyof T]: T[K] | Placeholder };

/** Above this many matches a search's total is a lower bound (docs/contract.md#search). */
export const SEARCH_TOTAL_CAP = 1_000;

/**
 * The filter with its search turned into what the SQL takes: `words` (each word a prefix, for
 * `to_tsquery`) and `uuidKey` (a UUID's or its last block's start, as the index keys them). Words are
 * letters and digits only, so the user's text never reaches tsquery syntax. Nothing searchable left
 * (only punctuation): a words query that matches nothing.
 */
export function searchFilter<F extends { search?: string; words?: string; uuidKey?: string }>(f: F): F {
  if (!f.search) return f;
  const text = f.search.normalize('NFC').toLowerCase();
  const pieces = text.match(/[\p{L}\p{Nd}]+/gu) ?? [];
  const fragment = text.trim();
  const uuidKey = /^[\da-f-]*\d[\da-f-]*$/.test(fragment) ? `'#${fragment}':*` : undefined;
  // A word and its negation: a tsquery no row holds (an empty one also matches nothing, with a notice).
  const words = pieces.length ? pieces.map((w) => `${singular(w)}:*`).join(' & ') : 'x & !x';
  return { ...f, search: undefined, words, uuidKey };
}

/** A word of letters without its plural ending (es, s), when three letters are left: its start all the same. */
const singular = (word: string) => (/\d/.test(word) ? word : word.replace(/^(.{3,}?)(es|s)$/u, '$1'));

/**
 * A search as a tsquery: its words over `es_plain` (as written, accents folded), each a prefix; its
 * UUID key, when it has one, as an alternative.
 */
export const searchQuery = (f: Bound<{ words?: string; uuidKey?: string }>): SQL =>
  f.uuidKey ? sql`(${wordsQuery(f.words!)} || ${f.uuidKey}::tsquery)` : wordsQuery(f.words!);

/** The words of a search (`searchFilter`'s `words`) as a tsquery over `es_plain`. */
export const wordsQuery = (words: string | Placeholder): SQL => sql`to_tsquery('es_plain', ${words})`;

/**
 * Rows of the account matching the search, found by `cfdis_search_keys_idx`: the words of
 * `search_words`, the UUID and its last block (marked '#'), each with the owner in front
 * (f_search_keys, f_owned_query), so a prefix reads only that account's entries.
 */
const searchMatch = (f: Bound<CfdiListFilter>): SQL =>
  sql`f_search_keys(${cfdis.userId}, ${cfdis.searchWords}, ${cfdis.uuid}) @@ f_owned_query(${f.userId}, ${searchQuery(f)})`;

/** Whether a listing filter searches (its page is then sorted after the index found the matches). */
export const searching = (f: { search?: unknown; words?: unknown }) =>
  f.search !== undefined || f.words !== undefined;

/**
 * A listing filter as statement parameters: the values present (the search escaped for LIKE, the
 * profile standing in for the user), a placeholder for each, and the shape naming the statement.
 */
export function listParameters<
  F extends { search?: string; words?: string; uuidKey?: string; profileId?: string; userId?: string },
>(f: F) {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(searchFilter(f))) {
    if (value !== undefined && value !== '') values[key] = value;
  }
  // The profile stands in for the user, except in a search, whose index is by user.
  if (values.profileId && !values.words) delete values.userId;
  const bound = Object.fromEntries(Object.keys(values).map((key) => [key, sql.placeholder(key)]));
  return { values, bound: bound as Bound<F>, shape: Object.keys(values).sort().join(',') };
}

/** The WHERE of a CFDI listing; exported so the expense listing can union it with manual expenses. */
export function cfdiListWhere(f: Bound<CfdiListFilter>): SQL {
  return and(
    f.profileId ? eq(cfdis.profileId, f.profileId) : eq(cfdis.userId, f.userId),
    ...filtersBesideSearch(f),
    f.words ? searchMatch(f) : undefined,
  )!;
}

/** A listing's filters other than its owner and its search. */
const filtersBesideSearch = (f: Bound<CfdiListFilter>): (SQL | undefined)[] => [
  eq(cfdis.side, f.side),
  f.anio !== undefined ? eq(cfdis.anio, f.anio) : undefined,
  f.mes !== undefined ? eq(cfdis.mes, f.mes) : undefined,
  f.tipo ? eq(cfdis.tipo, f.tipo) : undefined,
  f.tipoComprobante ? eq(cfdis.tipoComprobante, f.tipoComprobante) : undefined,
  f.estatusSat ? eq(cfdis.estatusSat, f.estatusSat) : undefined,
  f.regimenFiscal
    ? or(eq(cfdis.regimenFiscalEmisor, f.regimenFiscal), eq(cfdis.regimenFiscalReceptor, f.regimenFiscal))
    : undefined,
];

/**
 * A words search by the counterparty dictionary (schema/search.ts, docs/design.md#search), as the
 * WITH the statements below start with: `q` the words' tsquery; `fast` whether the dictionary can
 * answer: the account's dictionary is complete and no searched word starts a word found outside a
 * counterparty (a concept, the own side's RFC or name), so every match has all the words in its
 * counterparty's RFC and names; `cands` then the counterparties whose words hold the search. The
 * account and side are only in the keys (`f_owned_words`, `f_owned_query`), so that no plan reads
 * every entry of the account to test each: the words index is the one way in (on tables not yet
 * analyzed, the primary key looked cheaper and cost 32 ms for 5,000 entries); each searched word is
 * looked up in `search_other_words` by its own range. A stale entry only holds words its rows lost
 * (a candidate without matches) or stays marked varied (a check more): never a wrong result.
 */
const dictionaryWith = (f: Bound<CfdiListFilter>): SQL => sql`with q as materialized (
    select w.q, f_owned_query(${f.userId} || '/' || ${f.side}, w.q) as owned
    from (select ${wordsQuery(f.words!)} as q) w
  ), fast as materialized (
    select not exists (select 1 from search_dictionary_pending p where p.user_id = ${f.userId})
      and not exists (
        select 1 from q, regexp_matches(q.q::text, '''([^'']+)''', 'g') as t(m), lateral (
          select 1 from search_other_words o where o.user_id = ${f.userId}
            and o.lexeme >= t.m[1] collate "C" and o.lexeme < (t.m[1] || chr(1114111)) collate "C" limit 1
        ) hit
      ) as ok
  ), cands as materialized (
    select c.rfc, c.varied from q, fast, search_counterparties c
    where fast.ok and f_owned_words(c.user_id || '/' || c.side, c.words) @@ q.owned
  )`;

/**
 * The (rfc, id, fecha) of up to `each` newest matches of every candidate counterparty, inside
 * `dictionaryWith`: by `cfdis_counterparty_idx`, index-only where the counterparty's names never
 * varied, each row checked against the words where they did. With `fromBound` (inside `pageBound`)
 * only the rows from `bound` on, of the candidates that have any there.
 */
function candidateRows(f: Bound<CfdiListFilter>, each: SQL, fromBound = false): SQL {
  const perCandidate = (varied: boolean) => sql`select c.rfc, m.id, m.fecha from cands c cross join lateral (
      select ${cfdis.id}, ${cfdis.fecha} from ${cfdis}
      where ${and(
        eq(cfdis.userId, f.userId),
        f.profileId ? eq(cfdis.profileId, f.profileId) : undefined,
        ...filtersBesideSearch(f),
        sql`${cfdis.counterpartyRfc} = c.rfc`,
        fromBound
          ? sql`(${cfdis.fecha}, ${cfdis.id}) >= ((select fecha from bound), (select id from bound))`
          : undefined,
        varied ? sql`${cfdis.searchWords} @@ (select q from q)` : undefined,
      )}
      order by ${sql.join(newestFirst(cfdis.fecha, cfdis.id, false), sql`, `)} limit ${each}
    ) m where ${varied ? sql`` : sql`not `}c.varied${fromBound ? sql` and exists (select 1 from firsts x, bound b where x.rfc = c.rfc and (x.fecha, x.id) >= (b.fecha, b.id))` : sql``}`;
  return sql`${perCandidate(false)} union all ${perCandidate(true)}`;
}

/**
 * A words search's matches (`candidateRows`), or every match by the search index when the
 * dictionary cannot answer.
 */
const dictionaryMatches = (f: Bound<CfdiListFilter>, each: SQL, fromBound = false): SQL =>
  sql`${candidateRows(f, each, fromBound)}
    union all select null, ${cfdis.id}, ${cfdis.fecha} from ${cfdis}, fast where not fast.ok and ${cfdiListWhere(f)}`;

/** A listing page's LIMIT and OFFSET, bound at execution with the filter. */
export const pageParams = { limit: sql.placeholder('limit'), offset: sql.placeholder('offset') };

/** How many rows a page reads: its offset and limit. */
const upToPage = sql`${pageParams.limit}::int + ${pageParams.offset}::int`;

/**
 * Where a page's rows start at the latest (the CTEs `firsts` and `bound`, after `dictionaryWith`):
 * the (offset + limit)th newest of a few newest rows of each candidate (just over offset + limit in
 * all). Those are matches, so at least offset + limit matches are as new: the page lies from there
 * on, in the candidates with a row there among these (the others' rows are all older), where a
 * common word's hundreds of candidates were each read for a whole page. Fewer rows than that: from
 * the start ('' sorts first).
 */
const pageBound = (f: Bound<CfdiListFilter>): SQL => sql`firsts as materialized (
    ${candidateRows(f, sql`(select (${upToPage}) / greatest(count(*), 1) + 1 from cands)`)}
  ), bound as materialized (
    select coalesce(b.fecha, '') as fecha, coalesce(b.id, '') as id
    from (select 1) one left join (
      select fecha, id from firsts order by fecha desc, id desc offset (${upToPage}) - 1 limit 1
    ) b on true
  )`;

/** How many rows `dictionaryMatches` finds, up to one past SEARCH_TOTAL_CAP (as `countedUpToCap`). */
const dictionaryCount = (f: Bound<CfdiListFilter>): SQL =>
  sql`select count(*)::int from (select 1 from (${dictionaryMatches(f, sql.raw(String(SEARCH_TOTAL_CAP + 1)))}) found limit ${sql.raw(String(SEARCH_TOTAL_CAP + 1))}) capped`;

/** Whether a listing's search may take the dictionary: words alone (a UUID fragment takes the search index). */
export const byDictionary = (f: Bound<CfdiListFilter>) => f.words !== undefined && f.uuidKey === undefined;

/**
 * Newest first. Without a search, in the list indexes' own order: plain `DESC` means NULLS FIRST,
 * which the indexes (`DESC NULLS LAST`) do not match, so PostgreSQL read and sorted the whole
 * filtered set. With a search, deliberately not in index order: the search index finds the matches
 * and they are sorted, where walking the date index and filtering each row read up to the user's
 * whole history for a rare term (docs/benchmarks.md). Both columns are NOT NULL, so
 * the order is the same either way.
 */
export const newestFirst = (fecha: SQL | AnyColumn, id: SQL | AnyColumn, searching: boolean) =>
  searching
    ? [sql`${fecha} desc`, sql`${id} desc`]
    : [sql`${fecha} desc nulls last`, sql`${id} desc nulls last`];

/** How many CFDI a listing filter matches. */
export const cfdiCount = (c: Executor, f: Bound<CfdiListFilter>) =>
  c.select({ n: count() }).from(cfdis).where(cfdiListWhere(f));

/**
 * How many rows of `table` match `where`, counted up to one past SEARCH_TOTAL_CAP when the listing
 * searches: each match counted costs a heap page, so a common word's tens of thousands never are.
 */
export function countedUpToCap(c: Executor, table: PgTable, where: SQL, search: boolean) {
  if (!search) return c.select({ n: count() }).from(table).where(where);
  const capped = c
    .select({ one: sql`1`.as('one') })
    .from(table)
    .where(where)
    .limit(SEARCH_TOTAL_CAP + 1)
    .as('capped');
  return c.select({ n: count() }).from(capped);
}

/** How many CFDI a listing matches, as its total needs (`countedUpToCap`). */
export const listedCount = (c: Executor, f: Bound<CfdiListFilter>) =>
  byDictionary(f) ? dictionaryCounted(c, f) : countedUpToCap(c, cfdis, cfdiListWhere(f), searching(f));

/** A words search's matches counted up to one past SEARCH_TOTAL_CAP, the dictionary's way (`byDictionary`). */
export const dictionaryCounted = (c: Executor, f: Bound<CfdiListFilter>) =>
  c
    .select({ n: sql<number>`counted.n` })
    .from(sql`(${dictionaryWith(f)} ${dictionaryCount(f)}) as counted(n)`);

/**
 * The ids of a words search's newest offset + limit matches, the dictionary's way (`byDictionary`):
 * all a page of a listing that adds other rows to them (the expense listing) can take from them.
 */
export const newestMatchIds = (f: Bound<CfdiListFilter>): SQL => sql`${dictionaryWith(f)}, ${pageBound(f)}
  select found.id from (${dictionaryMatches(f, upToPage, true)}) found
  order by found.fecha desc, found.id desc limit ${upToPage}`;

/**
 * A listing page, newest `fecha` first, id as the tie-break, each row carrying `listedCount` as
 * `matching`, which saves a round trip: an uncorrelated subquery PostgreSQL runs once (filtered
 * only, an index-only count). Filtered only, the page is read in index order. With a search, the
 * search index finds the matches and they are sorted narrow (id and fecha), the page's rows joined
 * after: sorting whole rows (jsonb and all) cost PostgreSQL markedly more CPU (docs/benchmarks.md).
 * Flat rows: drizzle's mapping of nested selections cost more than the query itself. Exported so
 * bench/invoice-list runs the very same statement.
 */
export const cfdiPage = (c: Executor, f: Bound<CfdiListFilter>) => {
  const listed = { ...LISTED, profileNombre: profiles.nombre, profileRfc: profiles.rfc };
  const matching = sql<number>`(${listedCount(c, f)})::int`;
  if (!searching(f)) {
    return c
      .select({ ...listed, matching })
      .from(cfdis)
      .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
      .where(cfdiListWhere(f))
      .orderBy(...newestFirst(cfdis.fecha, cfdis.id, false))
      .limit(pageParams.limit)
      .offset(pageParams.offset);
  }
  if (byDictionary(f)) {
    // The page's candidates: those from its bound on, at most offset + limit of each, the total beside them.
    const found = sql`(${dictionaryWith(f)}, ${pageBound(f)}
      select found.id, found.fecha, (${dictionaryCount(f)}) as matching
      from (${dictionaryMatches(f, upToPage, true)}) found
      order by found.fecha desc, found.id desc limit ${pageParams.limit} offset ${pageParams.offset}
    ) as matches`;
    return c
      .select({ ...listed, matching: sql<number>`matches.matching` })
      .from(found)
      .innerJoin(cfdis, sql`${cfdis.id} = matches.id`)
      .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
      .orderBy(sql`matches.fecha desc`, sql`matches.id desc`);
  }
  const matches = c
    .select({ id: cfdis.id, fecha: cfdis.fecha })
    .from(cfdis)
    .where(cfdiListWhere(f))
    .orderBy(...newestFirst(cfdis.fecha, cfdis.id, true))
    .limit(pageParams.limit)
    .offset(pageParams.offset)
    .as('matches');
  return c
    .select({ ...listed, matching })
    .from(matches)
    .innerJoin(cfdis, eq(cfdis.id, matches.id))
    .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
    .orderBy(...newestFirst(matches.fecha, matches.id, true));
};

/** Where a keyset read resumes: the last row read, in newest-first order. */
export interface ListCursor {
  fecha: string;
  id: string;
}

/** Rows after the cursor in newest-first order (fecha and id are NOT NULL, so a row comparison holds). */
export const afterCursor = (fecha: SQL | AnyColumn, id: SQL | AnyColumn, after: ListCursor | undefined) =>
  after ? sql`(${fecha}, ${id}) < (${after.fecha}, ${after.id})` : undefined;

/** How many CFDI a listing filter matches (an export counts before it starts). */
export async function countCfdis(db: Db, f: CfdiListFilter): Promise<number> {
  const [row] = await cfdiCount(db, searchFilter(f));
  return row?.n ?? 0;
}

/**
 * The next `limit` listed CFDI after the cursor, with the listing's filter and order: an export reads
 * its rows in these keyset pages, so each page costs the same however deep it is (OFFSET would re-read
 * every row before it).
 */
export function cfdiRowsAfter(db: Db, f: CfdiListFilter, after: ListCursor | undefined, limit: number) {
  return db
    .select({
      ...LISTED,
      descuento: cfdis.descuento,
      profileNombre: profiles.nombre,
      profileRfc: profiles.rfc,
    })
    .from(cfdis)
    .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
    .where(and(cfdiListWhere(searchFilter(f)), afterCursor(cfdis.fecha, cfdis.id, after)))
    .orderBy(...newestFirst(cfdis.fecha, cfdis.id, searching(f)))
    .limit(limit);
}

/**
 * A listing's total as the contract gives it, from its `listedCount`: exact, or for a search past
 * SEARCH_TOTAL_CAP matches (counted one past it) the cap, marked inexact.
 */
export const listedTotal = (counted: number, search: boolean) =>
  search && counted > SEARCH_TOTAL_CAP
    ? { total: SEARCH_TOTAL_CAP, exact: false }
    : { total: counted, exact: true };

/** A page of the filtered CFDI and their total; a page past the end asks for the total alone. */
export async function listCfdis(db: Db, f: CfdiListFilter, at: { limit: number; offset: number }) {
  const { values, bound, shape } = listParameters(f);
  const found = await prepared(db, `listCfdis:${shape}`, (c) => cfdiPage(c, bound)).execute({
    ...values,
    ...at,
  });
  const rows = found.map((cfdi) => ({
    cfdi: cfdi as ListedCfdi,
    profile: { id: cfdi.profileId, nombre: cfdi.profileNombre, rfc: cfdi.profileRfc },
  }));
  const counted = () => prepared(db, `countCfdis:${shape}`, (c) => listedCount(c, bound)).execute(values);
  const n = found[0]?.matching ?? (at.offset > 0 ? ((await counted())[0]?.n ?? 0) : 0);
  return { rows, ...listedTotal(n, searching(values)) };
}

/**
 * Serialises payment-status work on these invoices across concurrent transactions (an invoice and
 * its complement arriving at once): each waits for the other's commit, then reads it. One statement
 * taking the locks in sorted order, so two transactions never wait on each other in opposite orders.
 */
export async function lockPaymentKeys(tx: Tx, profileId: string, uuids: string[]): Promise<void> {
  const keys = [...new Set(uuids)].map((uuid) => `${profileId}:${uuid}`);
  if (!keys.length) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(k, 0))
    from (select k from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k order by k) as sorted`);
}
