// Set-based seed for bench/reports: one RESICO profile with `rows` CFDI dated in `año` — income PUE
// and PPD (some with withholdings, some in USD), expenses at 16 %, 8 %, 0 % and exempt, credit notes
// related to invoices, and payment complements whose applications pay PPD invoices in the same or a
// later month (half of them stating their TrasladosDR) — plus manual expenses, paid and unpaid.
// Straight INSERT … SELECT from generate_series, then VACUUM ANALYZE.
import type { Sql } from 'postgres';

const VALIDACION = JSON.stringify({
  rfcVerificado: true,
  regimenFiscalVerificado: true,
  uuidDuplicado: false,
  advertencias: [],
  errores: [],
  valido: true,
});

/** Shares of the rows, cumulative percent: income PUE, income PPD, expense PUE, expense PPD, credit notes, complements. */
const MIX = { incomePue: 50, incomePpd: 68, expensePue: 80, expensePpd: 85, notes: 88 };

export async function seedReports(
  sql: Sql,
  p: { userId: string; profileId: string; rfc: string; año: number; rows: number; manual: number },
  log: (s: string) => void,
): Promise<void> {
  let t0 = performance.now();
  await sql`update profiles set tipo_persona = 'FISICA', regimenes_fiscales = '["626"]'::jsonb where id = ${p.profileId}`;
  await sql.unsafe(
    `insert into cfdis (id, profile_id, user_id, side, uuid, version, tipo_comprobante, tipo, fecha, mes, anio,
       moneda, tipo_cambio, metodo_pago, forma_pago, subtotal, total, iva, iva_amount, retencion_iva_amount,
       retencion_isr_amount, base_16, iva_16, base_8, iva_8, base_0, base_exenta, ieps, taxes_version,
       rfc_emisor, nombre_emisor, regimen_fiscal_emisor, rfc_receptor, nombre_receptor, regimen_fiscal_receptor,
       concepto, validacion, is_paid, payment_date, created_at, updated_at)
     with g as (
       select g, abs(hashint4(g)) % 100 as r, abs(hashint4(g + 7)) % 100 as r2, abs(hashint4(g + 11)) % 800 as k,
         timestamp '${p.año}-01-01 00:00' + (abs(hashint4(g + 13)) % 365) * interval '1 day'
           + (abs(hashint4(g + 17)) % 86400) * interval '1 second' as ts,
         round(100 + (abs(hashint4(g + 19)) % 4000000) / 100.0, 2) as sub,
         upper(md5('rep' || g)) as h
       from generate_series(0, ${p.rows - 1}) g
     ), x as (
       select g.*, to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS') as fecha,
         case when r < ${MIX.incomePpd} or r >= ${MIX.expensePpd} then 'income' else 'expense' end as side,
         case when r < ${MIX.incomePue} then 'PUE' when r < ${MIX.incomePpd} then 'PPD' when r < ${MIX.expensePue} then 'PUE'
           when r < ${MIX.expensePpd} then 'PPD' when r < ${MIX.notes} then 'PUE' else 'COMPLEMENTO_PAGO' end as tipo,
         case when r >= ${MIX.expensePpd} and r < ${MIX.notes} then 'E'
           when r >= ${MIX.notes} then 'P' else 'I' end as tc,
         -- Expenses: 70 % at 16 %, 10 % at 8 %, 10 % at 0 %, 10 % exempt; income at 16 %.
         case when r >= ${MIX.incomePpd} and r < ${MIX.expensePpd}
           then (case when r2 < 70 then 16 when r2 < 80 then 8 when r2 < 90 then 0 else -1 end) else 16 end as tasa,
         'C' || lpad(k::text, 3, '0') || to_char(date '1980-01-01' + k, 'YYMMDD') || 'AB' || (k % 10)::text as crfc,
         substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-A' || substr(h, 18, 3)
           || '-' || substr(h, 21, 12) as uuid
       from g
     ), y as (
       select x.*,
         case when tc = 'P' then 0 else sub end as subtotal,
         case when tc = 'P' or tasa < 0 then 0 else round(sub * tasa / 100, 2) end as iva,
         -- A third of the PPD income is to personas morales that withhold 1.25 % ISR and 2/3 of the IVA.
         case when side = 'income' and tipo = 'PPD' and r2 < 33 then round(sub * 0.0125, 2) else 0 end as ret_isr,
         case when side = 'income' and tipo = 'PPD' and r2 < 33 then round(sub * 0.106667, 2) else 0 end as ret_iva,
         -- 5 % of the income PUE in dollars.
         case when side = 'income' and tipo = 'PUE' and tc = 'I' and r2 >= 95 then 'USD' when tc = 'P' then 'XXX' else 'MXN' end as moneda
       from x
     )
     select gen_random_uuid()::text, ${lit(p.profileId)}, ${lit(p.userId)}, side, uuid, '4.0', tc, tipo, fecha,
       extract(month from ts)::smallint, extract(year from ts)::smallint, moneda,
       case when moneda = 'USD' then 17.25 end, case when tc = 'P' then null else tipo end,
       case tipo when 'PUE' then '03' when 'PPD' then '99' end,
       subtotal, subtotal + iva - ret_isr - ret_iva, greatest(tasa, 0), iva, ret_iva, ret_isr,
       case when tasa = 16 then subtotal else 0 end, case when tasa = 16 then iva else 0 end,
       case when tasa = 8 then subtotal else 0 end, case when tasa = 8 then iva else 0 end,
       case when tasa = 0 then subtotal else 0 end, case when tasa < 0 then subtotal else 0 end, 0, 1,
       case when side = 'income' then ${lit(p.rfc)} else crfc end,
       case when side = 'income' then 'Contribuyente RESICO' else 'Proveedor ' || k end, '626',
       case when side = 'income' then crfc else ${lit(p.rfc)} end,
       case when side = 'income' then 'Cliente ' || k else 'Contribuyente RESICO' end, '601',
       case when tc = 'P' then 'Pago' else 'Servicios' end, ${lit(VALIDACION)}::jsonb,
       case tipo when 'PUE' then true when 'PPD' then false end, case when tipo = 'PUE' then fecha end, ts, ts
     from y`,
  );
  log(`  cfdis: ${p.rows.toLocaleString('en')} rows in ${secs(t0)} s`);

  // Each complement pays one PPD invoice (income or expense, in turn) on a date up to two months after
  // it; the complement's own issuer is the invoice's. Half state their TrasladosDR.
  t0 = performance.now();
  await sql.unsafe(`
    with reps as (
      select id, uuid, fecha, row_number() over (order by id) as n from cfdis
      where profile_id = ${lit(p.profileId)} and tipo_comprobante = 'P'
    ), ppd as (
      select uuid, total, iva_amount, subtotal, fecha, side, rfc_emisor, rfc_receptor, retencion_iva_amount,
        retencion_isr_amount, row_number() over (order by id) as n, count(*) over () as m
      from cfdis where profile_id = ${lit(p.profileId)} and tipo = 'PPD' and tipo_comprobante = 'I'
    ), pairs as (
      select reps.id as rep_id, reps.uuid as rep_uuid, ppd.*,
        to_char(least(ppd.fecha::timestamp + ((reps.n % 60) * interval '1 day'), timestamp '${p.año}-12-31 23:00'),
          'YYYY-MM-DD"T"HH24:MI:SS') as fecha_pago,
        case when reps.n % 3 = 0 then 1.0 else 0.5 end as share, reps.n % 2 = 0 as dr
      from reps join ppd on ppd.n = 1 + (reps.n * 7) % ppd.m
    ), moved as (
      update cfdis c set side = pairs.side, rfc_emisor = pairs.rfc_emisor, rfc_receptor = pairs.rfc_receptor
      from pairs where c.id = pairs.rep_id
    )
    insert into payment_applications (id, profile_id, rep_cfdi_id, rep_uuid, related_uuid, num_parcialidad,
      fecha_pago, forma_pago, moneda_p, monto, moneda_dr, equivalencia_dr, metodo_pago_dr, imp_saldo_ant,
      imp_pagado, imp_saldo_insoluto, tipo_cambio_p, dr_taxes, base_16, iva_16, base_8, iva_8, base_0,
      base_exenta, ieps, retencion_iva, retencion_isr)
    select gen_random_uuid()::text, ${lit(p.profileId)}, rep_id, rep_uuid, uuid, 1, fecha_pago, '03', 'MXN',
      round(total * share, 2), 'MXN', 1, 'PPD', total, round(total * share, 2), total - round(total * share, 2), 1,
      dr, case when dr then round(subtotal * share, 6) end, case when dr then round(iva_amount * share, 6) end,
      case when dr then 0 end, case when dr then 0 end, case when dr then 0 end, case when dr then 0 end,
      case when dr then 0 end, case when dr then round(retencion_iva_amount * share, 6) end,
      case when dr then round(retencion_isr_amount * share, 6) end
    from pairs`);
  // Credit notes relate (01) to an income invoice.
  await sql.unsafe(`
    insert into cfdi_relations (cfdi_id, profile_id, tipo_relacion, related_uuid)
    select e.id, e.profile_id, '01', i.uuid
    from (select id, profile_id, row_number() over (order by id) as n from cfdis
          where profile_id = ${lit(p.profileId)} and tipo_comprobante = 'E') e
    join (select uuid, row_number() over (order by id) as n from cfdis
          where profile_id = ${lit(p.profileId)} and tipo_comprobante = 'I' and side = 'income') i using (n)`);
  log(`  payment applications and credit-note relations in ${secs(t0)} s`);

  t0 = performance.now();
  await sql.unsafe(`
    insert into accounting_periods (id, profile_id, anio, mes)
    select gen_random_uuid()::text, ${lit(p.profileId)}, ${p.año}, m from generate_series(1, 12) m`);
  await sql.unsafe(`
    insert into manual_expenses (id, profile_id, user_id, period_id, fecha, mes, anio, subtotal, iva_amount, total,
      iva, concepto, is_paid, payment_date, rfc_emisor, nombre_emisor)
    select gen_random_uuid()::text, ${lit(p.profileId)}, ${lit(p.userId)}, ap.id, to_char(d, 'YYYY-MM-DD'),
      ap.mes, ap.anio, s, round(s * 0.16, 2), s + round(s * 0.16, 2), 16, 'Gasto ' || g, g % 2 = 0,
      case when g % 2 = 0 then to_char(d + interval '3 days', 'YYYY-MM-DD') end,
      case when g % 3 = 0 then 'PROV' || lpad((g % 100)::text, 2, '0') || '0101AB1' end,
      case when g % 3 = 0 then 'Proveedor manual ' || (g % 100) end
    from generate_series(0, ${p.manual - 1}) g
    cross join lateral (select date '${p.año}-01-01' + (g % 362) as d, round(50 + (g % 5000), 2) as s) v
    join accounting_periods ap on ap.profile_id = ${lit(p.profileId)} and ap.mes = extract(month from v.d)`);
  log(`  manual expenses: ${p.manual.toLocaleString('en')} rows in ${secs(t0)} s`);
  t0 = performance.now();
  for (const table of ['cfdis', 'payment_applications', 'cfdi_relations', 'manual_expenses'])
    await sql.unsafe(`vacuum (analyze) ${table}`);
  log(`  VACUUM (ANALYZE) in ${secs(t0)} s`);
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const secs = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);
