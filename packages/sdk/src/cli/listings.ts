import { datePart, formatCount, formatMoney, renderTable } from './format';
import { EXIT, type Io, tableWidth, UsageError } from './io';
import { type Invoice, listAllInvoices, openSession, resolveProfile } from './session';

export interface ListFlags {
  url?: string;
  token?: string;
  config?: string;
  profile?: string;
  mes?: string;
  año?: string;
  anio?: string;
  search?: string;
  json?: boolean;
}

/** An integer flag within bounds, or a usage error naming it. */
export function intFlag(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be ${min}-${max}`);
  return n;
}

const estadoOf = (i: Invoice) =>
  i.estadoPago
    ? { PAGADO: 'pagada', PAGO_PARCIAL: 'parcial', NO_PAGADO: 'sin pagar' }[i.estadoPago.estado]
    : '';

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

/** `folio invoices [--profile RFC|id] [--mes N] [--año N] [--search TEXT] [--json]` */
export async function invoicesCommand(io: Io, flags: ListFlags): Promise<number> {
  const mes = intFlag('mes', flags.mes, 1, 12);
  const año = intFlag('año', flags.año ?? flags.anio, 1990, 2100);
  const session = await openSession(io, flags);
  const profile = flags.profile ? await resolveProfile(session, flags.profile) : undefined;
  const invoices = await listAllInvoices(session, {
    profileId: profile?.id,
    mes,
    año,
    search: flags.search,
  });
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(invoices, null, 2)}\n`);
    return EXIT.ok;
  }
  const scope = [
    profile ? `${profile.rfc} (${profile.nombre})` : 'todos los perfiles',
    mes || año ? `${mes ? String(mes).padStart(2, '0') : '*'}/${año ?? '*'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (!invoices.length) {
    io.stdout.write(`Sin facturas en ${scope}.\n`);
    return EXIT.ok;
  }
  const table = renderTable(
    [
      { header: 'fecha' },
      { header: 'tipo' },
      { header: 'uuid', shrink: true },
      ...(profile ? [] : [{ header: 'perfil', shrink: true }]),
      { header: 'cliente', max: 32, shrink: true },
      { header: 'total', align: 'right' as const },
      { header: 'estado' },
      { header: 'válida' },
    ],
    invoices.map((i) => [
      datePart(i.fecha),
      i.tipo === 'COMPLEMENTO_PAGO' ? 'PAGO' : i.tipo,
      i.uuid,
      ...(profile ? [] : [i.profile?.rfc ?? '']),
      `${i.nombre_receptor} ${i.rfc_receptor}`.trim(),
      formatMoney(i.total),
      estadoOf(i),
      i.validacion.valido ? 'sí' : 'no',
    ]),
    tableWidth(io),
  );
  const billed = sum(invoices.filter((i) => i.tipo !== 'COMPLEMENTO_PAGO').map((i) => i.total));
  io.stdout.write(
    `Facturas de ${scope}\n\n${table}\n\n${formatCount(invoices.length)} factura(s); facturado ${formatMoney(billed)}\n`,
  );
  return EXIT.ok;
}

/** `folio pending [--profile RFC|id] [--json]`: PPD invoices not fully paid, oldest first. */
export async function pendingCommand(io: Io, flags: ListFlags): Promise<number> {
  const session = await openSession(io, flags);
  const profile = flags.profile ? await resolveProfile(session, flags.profile) : undefined;
  const all = await listAllInvoices(session, { profileId: profile?.id });
  const pending = all
    .filter((i) => i.tipo === 'PPD' && i.estadoPago?.estado !== 'PAGADO')
    .sort((a, b) => a.fecha.localeCompare(b.fecha) || a.uuid.localeCompare(b.uuid));
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(pending, null, 2)}\n`);
    return EXIT.ok;
  }
  const scope = profile ? `${profile.rfc} (${profile.nombre})` : 'todos los perfiles';
  if (!pending.length) {
    io.stdout.write(`Sin facturas PPD pendientes de pago en ${scope}.\n`);
    return EXIT.ok;
  }
  const today = Date.now();
  const table = renderTable(
    [
      { header: 'fecha' },
      { header: 'días', align: 'right' },
      { header: 'uuid', shrink: true },
      ...(profile ? [] : [{ header: 'perfil', shrink: true }]),
      { header: 'cliente', max: 32, shrink: true },
      { header: 'total', align: 'right' as const },
      { header: 'pagado', align: 'right' as const },
      { header: 'saldo', align: 'right' as const },
      { header: 'estado' },
    ],
    pending.map((i) => [
      datePart(i.fecha),
      String(Math.max(0, Math.floor((today - Date.parse(`${datePart(i.fecha)}T00:00:00Z`)) / 86_400_000))),
      i.uuid,
      ...(profile ? [] : [i.profile?.rfc ?? '']),
      `${i.nombre_receptor} ${i.rfc_receptor}`.trim(),
      formatMoney(i.total),
      formatMoney(i.estadoPago?.totalPagado ?? 0),
      formatMoney(i.estadoPago?.saldoPendiente ?? i.total),
      estadoOf(i) || 'sin pagar',
    ]),
    tableWidth(io),
  );
  const owed = sum(pending.map((i) => i.estadoPago?.saldoPendiente ?? i.total));
  io.stdout.write(
    `Facturas PPD sin pagar por completo, de la más antigua a la más reciente (${scope})\n\n${table}\n\n` +
      `${formatCount(pending.length)} factura(s); por cobrar ${formatMoney(owed)}\n`,
  );
  return EXIT.ok;
}

/** `folio profiles [--json]` */
export async function profilesCommand(io: Io, flags: ListFlags): Promise<number> {
  const session = await openSession(io, flags);
  const { data } = await session.client.rest.GET('/profiles');
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(data.data, null, 2)}\n`);
    return EXIT.ok;
  }
  if (!data.data.length) {
    io.stdout.write('Aún no hay perfiles.\n');
    return EXIT.ok;
  }
  io.stdout.write(
    `${renderTable(
      [
        { header: 'rfc' },
        { header: 'nombre', max: 40, shrink: true },
        { header: 'tipo' },
        { header: 'regímenes', shrink: true },
        { header: 'id', shrink: true },
      ],
      data.data.map((p) => [
        p.rfc,
        p.nombre,
        p.tipo_persona,
        p.regimenes_fiscales.join(' '),
        p.frozen ? `${p.id} (congelado)` : p.id,
      ]),
      tableWidth(io),
    )}\n`,
  );
  return EXIT.ok;
}
