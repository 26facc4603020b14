import { CliError, EXIT, type Io, UsageError } from './io';
import { openSession, resolveProfile } from './session';

export interface SatSyncFlags {
  url?: string;
  token?: string;
  config?: string;
  profile?: string;
  desde?: string;
  hasta?: string;
  tipo?: string;
  contenido?: string;
  sat?: string;
  'password-stdin'?: boolean;
  json?: boolean;
}

/** How often `folio sat sync` asks the server where its job is. */
export const POLL_MS = 2000;
const ENDED = new Set(['terminada', 'error']);
const wait = (io: Io, ms: number) => (io.sleep ? io.sleep(ms) : new Promise<void>((r) => setTimeout(r, ms)));

/**
 * `folio sat sync --profile RFC --desde D --hasta D [--tipo T] [--contenido C]`: starts a sync job on
 * the server (its stored e.firma; needs the login session), prints each new estado until it ends,
 * then the counts. Exits 1 when the job ends in error.
 */
export async function satSyncCommand(io: Io, flags: SatSyncFlags): Promise<number> {
  if (!flags.profile || !flags.desde || !flags.hasta)
    throw new UsageError('folio sat sync needs --profile <RFC|id> --desde YYYY-MM-DD --hasta YYYY-MM-DD');
  if (flags.sat || flags['password-stdin'])
    throw new UsageError('--sat and --password-stdin are for local mode: give --cer FILE --key FILE too');
  const session = await openSession(io, flags, { sessionOnly: true });
  const profile = await resolveProfile(session, flags.profile);
  const body = {
    desde: flags.desde,
    hasta: flags.hasta,
    tipo: (flags.tipo ?? 'ambos') as 'ambos',
    contenido: (flags.contenido ?? 'ambos') as 'ambos',
  };
  const { data: created } = await session.client.rest.POST('/profiles/{profileId}/sat-sync', {
    params: { path: { profileId: profile.id } },
    body,
  });
  const id = created.data.id;
  io.stderr.write(`Sincronización ${id} creada para ${profile.rfc}.\n`);
  let last = '';
  for (;;) {
    const { data } = await session.client.rest.GET('/sat-sync/{id}', { params: { path: { id } } });
    const job = data.data;
    if (job.estado !== last) io.stderr.write(`  ${job.estado}\n`);
    last = job.estado;
    if (ENDED.has(job.estado)) {
      if (flags.json) io.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
      else
        io.stdout.write(
          `CFDI: ${job.cfdi.importados} importados, ${job.cfdi.duplicados} duplicados, ` +
            `${job.cfdi.rechazados} rechazados, ${job.cfdi.fuera_de_cuota} fuera de cuota. ` +
            `Metadatos: ${job.metadata.vigentes} vigentes, ${job.metadata.cancelados} cancelados, ` +
            `${job.metadata.faltantes} sin XML.\n`,
        );
      if (job.estado === 'error')
        throw new CliError(`la sincronización terminó con error: ${job.error ?? ''}`);
      return EXIT.ok;
    }
    await wait(io, POLL_MS);
  }
}

/**
 * `folio sat status UUID`: finds the invoice or expense by its UUID (the listings' search) and asks
 * the server to check it with SAT's status service (BASIC and PRO).
 */
export async function satStatusCommand(io: Io, args: string[], flags: SatSyncFlags): Promise<number> {
  const [uuid, ...extra] = args;
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (!uuid?.trim()) throw new UsageError('say the CFDI’s UUID');
  const wanted = uuid.trim().toUpperCase();
  const session = await openSession(io, flags);
  const query = { params: { query: { search: wanted, limit: 5 } } };
  const invoices = (await session.client.rest.GET('/invoices', query)).data.data;
  const invoice = invoices.find((i) => i.uuid?.toUpperCase() === wanted);
  const expense = invoice
    ? undefined
    : (await session.client.rest.GET('/expenses', query)).data.data.find(
        (e) => e.uuid?.toUpperCase() === wanted,
      );
  if (!invoice && !expense) throw new CliError(`no hay factura ni gasto con UUID ${wanted}`);
  const { data } = invoice
    ? await session.client.rest.POST('/invoices/{id}/sat-status', { params: { path: { id: invoice.id } } })
    : await session.client.rest.POST('/expenses/{id}/sat-status', { params: { path: { id: expense!.id } } });
  const s = data.data;
  if (flags.json) io.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
  else
    io.stdout.write(
      `${s.uuid}: SAT responde ${s.sat.estado.replace('_', ' ')}; estatus en Folio: ${s.estatus_sat}` +
        `${s.fecha_cancelacion ? ` (cancelado el ${s.fecha_cancelacion})` : ''}.\n`,
    );
  return EXIT.ok;
}
