import { datePart, formatCount, formatMoney, renderTable } from './format';
import { EXIT, type Io, tableWidth, UsageError } from './io';
import { intFlag, type ListFlags } from './listings';
import { openSession, resolveProfile } from './session';

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

/** `folio expenses [--profile RFC|id] [--mes N] [--año N] [--search TEXT] [--json]`: XML and manual. */
export async function expensesCommand(io: Io, flags: ListFlags): Promise<number> {
  const mes = intFlag('mes', flags.mes, 1, 12);
  const año = intFlag('año', flags.año ?? flags.anio, 1990, 2100);
  const session = await openSession(io, flags);
  const profile = flags.profile ? await resolveProfile(session, flags.profile) : undefined;
  const expenses = [];
  for await (const e of session.client.rest.paginate('/expenses', {
    params: { query: { profileId: profile?.id, mes, año, search: flags.search, limit: 100 } },
  })) {
    expenses.push(e);
  }
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(expenses, null, 2)}\n`);
    return EXIT.ok;
  }
  const scope = [
    profile ? `${profile.rfc} (${profile.nombre})` : 'todos los perfiles',
    mes || año ? `${mes ? String(mes).padStart(2, '0') : '*'}/${año ?? '*'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (!expenses.length) {
    io.stdout.write(`Sin gastos en ${scope}.\n`);
    return EXIT.ok;
  }
  const table = renderTable(
    [
      { header: 'fecha' },
      { header: 'origen' },
      { header: 'proveedor', max: 32, shrink: true },
      { header: 'concepto', max: 32, shrink: true },
      { header: 'total', align: 'right' as const },
      { header: 'pagado' },
    ],
    expenses.map((e) => [
      datePart(e.fecha),
      e.tipo_origen === 'MANUAL' ? 'manual' : 'CFDI',
      `${e.nombre_emisor ?? ''} ${e.rfc_emisor ?? ''}`.trim(),
      e.concepto ?? e.categoria ?? '',
      formatMoney(e.total),
      e.is_paid === false ? 'no' : 'sí',
    ]),
    tableWidth(io),
  );
  io.stdout.write(
    `Gastos de ${scope}\n\n${table}\n\n${formatCount(expenses.length)} gasto(s); total ${formatMoney(sum(expenses.map((e) => e.total)))}\n`,
  );
  return EXIT.ok;
}

export interface ExpenseAddFlags {
  url?: string;
  token?: string;
  config?: string;
  profile?: string;
  fecha?: string;
  concepto?: string;
  subtotal?: string;
  iva?: string;
  categoria?: string;
  rfc?: string;
  nombre?: string;
  pagado?: boolean;
  json?: boolean;
}

/**
 * `folio expense add --profile RFC --fecha AAAA-MM-DD --concepto TEXT --subtotal N [--iva N] …`: opens
 * the month's period (POST /periods answers the existing one too), then records the manual expense.
 */
export async function expenseAddCommand(io: Io, flags: ExpenseAddFlags): Promise<number> {
  if (!flags.profile) throw new UsageError('folio expense add needs --profile <RFC|id>');
  const fecha = flags.fecha ?? '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  if (!m) throw new UsageError('--fecha must be a date YYYY-MM-DD');
  if (!flags.concepto) throw new UsageError('folio expense add needs --concepto TEXT');
  const money = (name: string, value: string | undefined) => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < 0)
      throw new UsageError(`--${name} must be an amount ≥ 0`);
    return n;
  };
  const subtotal = money('subtotal', flags.subtotal);
  const iva = flags.iva === undefined ? undefined : money('iva', flags.iva);
  const session = await openSession(io, flags);
  const profile = await resolveProfile(session, flags.profile);
  const { data: period } = await session.client.rest.POST('/periods', {
    body: { profile_id: profile.id, año: Number(m[1]), mes: Number(m[2]) },
  });
  const { data } = await session.client.rest.POST('/accrued-expenses', {
    body: {
      profile_id: profile.id,
      period_id: period.data.id,
      type: 'manual',
      fecha,
      concepto: flags.concepto,
      subtotal,
      ...(iva === undefined ? {} : { iva_amount: iva }),
      ...(flags.categoria ? { categoria: flags.categoria } : {}),
      ...(flags.rfc ? { rfc_emisor: flags.rfc } : {}),
      ...(flags.nombre ? { nombre_emisor: flags.nombre } : {}),
      ...(flags.pagado ? { is_paid: true, payment_date: fecha } : {}),
    },
  });
  const e = data.data;
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(e, null, 2)}\n`
      : `Gasto registrado en ${profile.rfc}: ${datePart(e.fecha)} ${e.concepto ?? ''}, subtotal ${formatMoney(e.subtotal)}, IVA ${formatMoney(e.iva_amount ?? 0)}, total ${formatMoney(e.total)} (id ${e.id})\n`,
  );
  return EXIT.ok;
}
