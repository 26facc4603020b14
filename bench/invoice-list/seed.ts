// Set-based seed for bench/invoice-list: `rows` CFDI over `profiles` profiles of one user, two years of
// dates (2024–2025), 5,000 counterparties with accented names and RFCs of both shapes, 90 % income
// (PUE, PPD partly paid or unpaid, payment complements) and 10 % expenses. The secondary indexes of
// `cfdis` are dropped for the load and recreated from their own definitions afterwards (same schema,
// much faster than maintaining the search GIN row by row), then VACUUM ANALYZE. The rows count as having
// their taxes derived: no back-fill of 1M rows when a later run (REUSE) starts the server on them.
import { DEFAULT_VALIDATION_FLAGS } from '@folio/cfdi';
import { TAXES_VERSION } from '@folio/db/schema';
import type { Sql } from 'postgres';

export const FIRST = [
  'Ferretería',
  'Comercializadora',
  'Distribuidora',
  'Servicios Integrales',
  'Abarrotes',
  'Transportes',
  'Constructora',
  'Farmacia',
  'Papelería',
  'Consultores',
  'Refaccionaria',
  'Panadería',
];
export const SURNAMES = [
  'García',
  'Hernández',
  'López',
  'Martínez',
  'González',
  'Pérez',
  'Rodríguez',
  'Sánchez',
  'Ramírez',
  'Cruz',
  'Flores',
  'Gómez',
  'Morales',
  'Vázquez',
  'Jiménez',
  'Reyes',
  'Díaz',
  'Torres',
  'Gutiérrez',
  'Ruiz',
  'Mendoza',
  'Aguilar',
  'Ortiz',
  'Moreno',
  'Castillo',
  'Romero',
  'Álvarez',
  'Méndez',
  'Chávez',
  'Rivera',
  'Juárez',
  'Ramos',
  'Domínguez',
  'Herrera',
  'Medina',
  'Castro',
  'Vargas',
  'Guzmán',
  'Velázquez',
  'Muñoz',
];
const CONCEPTOS = [
  'Servicios de consultoría fiscal',
  'Mantenimiento preventivo de equipo',
  'Licencia anual de software',
  'Renta de local comercial',
  'Papelería y artículos de oficina',
  'Flete terrestre de mercancía',
  'Diseño gráfico y publicidad',
  'Capacitación técnica al personal',
  'Material eléctrico',
  'Tornillería y herrajes',
  'Cemento gris 50 kg',
  'Medicamentos genéricos',
  'Honorarios contables',
  'Reparación de maquinaria',
  'Servicio de limpieza',
  'Equipo de cómputo',
  'Uniformes de trabajo',
  'Pan dulce y bolillo',
  'Refacciones automotrices',
  'Asesoría legal',
];

const arr = (xs: string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;
const FLAGS = JSON.stringify(DEFAULT_VALIDATION_FLAGS);
const VALIDACION = JSON.stringify({
  rfcVerificado: true,
  regimenFiscalVerificado: true,
  uuidDuplicado: false,
  advertencias: [],
  errores: [],
  valido: true,
});

export async function seedProfiles(sql: Sql, userId: string, n: number): Promise<string[]> {
  await sql.unsafe(
    `insert into profiles (id, user_id, nombre, rfc, tipo_persona, regimenes_fiscales, validaciones_habilitadas)
     select gen_random_uuid()::text, $1, 'Contribuyente ' || lpad(p::text, 3, '0') || ' SA de CV',
       chr(65 + p % 26) || chr(65 + (p / 26) % 26) || 'X' || to_char(date '1990-01-01' + p * 3, 'YYMMDD')
         || 'A' || chr(66 + p % 20) || (p % 10)::text,
       'MORAL', '["601"]'::jsonb, $2::jsonb
     from generate_series(0, ${n - 1}) p`,
    [userId, FLAGS],
  );
  const rows = await sql<{ id: string }[]>`select id from profiles where user_id = ${userId} order by rfc`;
  return rows.map((r) => r.id);
}

/** The counterparty `k` (0 ≤ k < 5,000): its RFC and name, as SQL expressions over `k`. */
const COUNTERPARTY_RFC = `(case when k % 3 = 0
    then chr(65 + k % 26) || chr(65 + (k / 26) % 26) || chr(65 + (k / 676) % 26) || 'X'
      || to_char(date '1960-01-01' + k * 5, 'YYMMDD') || 'H' || chr(65 + k % 23) || (k % 10)::text
    else chr(65 + k % 26) || chr(65 + (k / 26) % 26) || chr(65 + (k / 676) % 26)
      || to_char(date '1980-01-01' + k * 3, 'YYMMDD') || 'M' || chr(65 + k % 23) || (k % 10)::text end)`;
const COUNTERPARTY_NAME = `(${arr(FIRST)})[1 + k % 12] || ' ' || (${arr(SURNAMES)})[1 + (k / 12) % 40]
    || ' ' || (${arr(SURNAMES)})[1 + (k / 7) % 37]
    || (case when k % 3 = 0 then '' when k % 3 = 1 then ' SA de CV' else ' S de RL de CV' end)`;

/** `sql` should be a pool of two connections: the load and the index builds run two at a time. */
export async function seedCfdis(
  sql: Sql,
  userId: string,
  rows: number,
  profiles: number,
  log: (s: string) => void,
): Promise<void> {
  const defs = await sql<{ name: string; def: string }[]>`
    select indexname as name, indexdef as def from pg_indexes
    where schemaname = current_schema() and tablename = 'cfdis' and indexname <> 'cfdis_pkey'`;
  for (const d of defs) await sql.unsafe(`drop index "${d.name}"`);
  let t0 = performance.now();
  // Two halves at once (the pool has two connections): the generated search_words and the jsonb
  // building are CPU-bound.
  const half = Math.ceil(rows / 2);
  const insert = (from: number, to: number) =>
    sql.unsafe(
      `insert into cfdis (id, profile_id, user_id, side, uuid, version, tipo_comprobante, tipo, fecha, mes, anio,
       moneda, tipo_cambio, metodo_pago, forma_pago, subtotal, total, iva, iva_amount, rfc_emisor, nombre_emisor,
       regimen_fiscal_emisor, rfc_receptor, nombre_receptor, regimen_fiscal_receptor, concepto, complemento_pago,
       validacion, estado_pago, payment_warnings, pagos, is_paid, payment_date, taxes_version, created_at, updated_at)
     with pr as (
       select array_agg(id order by rfc) ids, array_agg(rfc order by rfc) rfcs, array_agg(nombre order by rfc) nombres
       from profiles where user_id = $1
     ), g as (
       select g, abs(hashint4(g)) % 5000 as k,
         timestamp '2024-01-01 08:00' + (abs(hashint4(g + 1000003)) % 731) * interval '1 day'
           + (abs(hashint4(g + 2000003)) % 36000) * interval '1 second' as ts,
         abs(hashint4(g + 3000017)) % 100 as r,
         round(150 + (abs(hashint4(g + 4000037)) % 5000000) / 100.0, 2) as sub,
         abs(hashint4(g + 5000011)) % 20 as c,
         upper(md5('cfdi' || g)) as h
       from generate_series(${from}, ${to - 1}) g
     ), x as (
       select g.*, pr.ids[1 + g % ${profiles}] as pid, pr.rfcs[1 + g % ${profiles}] as prfc,
         pr.nombres[1 + g % ${profiles}] as pnombre, ${COUNTERPARTY_RFC} as crfc, ${COUNTERPARTY_NAME} as cnombre,
         case when r < 10 then 'expense' else 'income' end as side,
         case when r < 7 then 'PUE' when r < 10 then 'PPD' when r < 62 then 'PUE' when r < 88 then 'PPD'
           else 'COMPLEMENTO_PAGO' end as tipo,
         substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-A' || substr(h, 18, 3)
           || '-' || substr(h, 21, 12) as uuid,
         to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS') as fecha
       from g cross join pr
     ), y as (
       select x.*, case when tipo = 'COMPLEMENTO_PAGO' then 0 else sub end as subtotal,
         case when tipo = 'COMPLEMENTO_PAGO' then 0 else round(sub * 1.16, 2) end as total,
         round(sub * 1.16, 2) as owed
       from x
     )
     select gen_random_uuid()::text, pid, $1, side, uuid, '4.0',
       case when tipo = 'COMPLEMENTO_PAGO' then 'P' else 'I' end, tipo, fecha,
       extract(month from ts)::smallint, extract(year from ts)::smallint,
       case when tipo = 'COMPLEMENTO_PAGO' then 'XXX' else 'MXN' end, null,
       case when tipo = 'COMPLEMENTO_PAGO' then null else tipo end,
       case tipo when 'PUE' then '03' when 'PPD' then '99' end,
       subtotal, total, case when tipo = 'COMPLEMENTO_PAGO' then 0 else 16 end,
       case when tipo = 'COMPLEMENTO_PAGO' then null else total - subtotal end,
       case when side = 'income' then prfc else crfc end,
       case when side = 'income' then pnombre else cnombre end, case when side = 'income' then '601' else '612' end,
       case when side = 'income' then crfc else prfc end,
       case when side = 'income' then cnombre else pnombre end, case when side = 'income' then '612' else '601' end,
       case when tipo = 'COMPLEMENTO_PAGO' then 'Pago' else (${arr(CONCEPTOS)})[1 + c] end,
       case when tipo = 'COMPLEMENTO_PAGO' then jsonb_build_object(
         'fechaPago', fecha, 'formaPago', '03', 'monedaPago', 'MXN', 'tipoCambio', 1, 'monto', owed,
         'facturasRelacionadas', jsonb_build_array(jsonb_build_object(
           'uuid', upper(substr(md5('rel' || g), 1, 8)) || '-0000-4000-A000-' || upper(substr(md5('rel' || g), 9, 12)),
           'monedaDR', 'MXN', 'tipoCambioDR', 1, 'metodoPagoDR', 'PPD', 'numParcialidad', 1,
           'impSaldoAnt', owed, 'impPagado', owed, 'impSaldoInsoluto', 0))) end,
       $2::jsonb,
       case when tipo = 'PUE' then jsonb_build_object('estado', 'PAGADO', 'totalFactura', total, 'totalPagado', total,
           'saldoPendiente', 0, 'porcentajePagado', 100, 'completamentePagado', true,
           'tieneComplementos', false, 'tienePagosManuales', false)
         when tipo = 'PPD' and c < 8 then jsonb_build_object('estado', 'PAGO_PARCIAL', 'totalFactura', total,
           'totalPagado', round(total * 0.4, 2), 'saldoPendiente', total - round(total * 0.4, 2),
           'porcentajePagado', 40, 'completamentePagado', false, 'ultimoSaldoInsoluto', total - round(total * 0.4, 2),
           'tieneComplementos', true, 'tienePagosManuales', false)
         when tipo = 'PPD' then jsonb_build_object('estado', 'NO_PAGADO', 'totalFactura', total, 'totalPagado', 0,
           'saldoPendiente', total, 'porcentajePagado', 0, 'completamentePagado', false,
           'tieneComplementos', false, 'tienePagosManuales', false) end,
       '[]'::jsonb,
       case when tipo = 'PPD' and c < 8 then jsonb_build_array(jsonb_build_object('fechaPago', fecha,
           'formaPago', '03', 'monedaPago', 'MXN', 'monto', round(total * 0.4, 2))) else '[]'::jsonb end,
       case tipo when 'PUE' then true when 'PPD' then false end,
       case when tipo = 'PUE' then fecha end,
       ${TAXES_VERSION}, ts, ts
     from y`,
      [userId, VALIDACION],
    );
  await Promise.all([insert(0, half), insert(half, rows)]);
  log(`inserted ${rows.toLocaleString('en')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Two lanes: the search GIN (the long one) on one connection, the B-trees on the other.
  const build = async (d: { name: string; def: string }) => {
    const t = performance.now();
    await sql.begin(async (tx) => {
      await tx`set local maintenance_work_mem = '1GB'`;
      await tx.unsafe(d.def);
    });
    log(`  ${d.name} rebuilt in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  const gin = defs.filter((d) => / using gin /i.test(d.def));
  const btree = defs.filter((d) => !gin.includes(d));
  t0 = performance.now();
  await Promise.all([
    (async () => {
      for (const d of gin) await build(d);
    })(),
    (async () => {
      for (const d of btree) await build(d);
    })(),
  ]);
  log(`indexes rebuilt in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  t0 = performance.now();
  await sql`vacuum (analyze) cfdis`;
  await sql`vacuum (analyze) profiles`;
  log(`VACUUM (ANALYZE) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
