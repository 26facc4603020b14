import { datePart, renderTable } from './format';
import { EXIT, type Io, tableWidth, UsageError } from './io';
import { openSession, resolveProfile } from './session';

export interface SupportFlags {
  url?: string;
  token?: string;
  config?: string;
  profile?: string;
  json?: boolean;
}

/** `folio support "asunto" "mensaje" [--profile <RFC|id>]`: a support request (BASIC and PRO). */
export async function supportCommand(io: Io, args: string[], flags: SupportFlags): Promise<number> {
  const [asunto, mensaje, ...extra] = args;
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (!asunto?.trim() || !mensaje?.trim()) throw new UsageError('say the subject and the message, in quotes');
  const session = await openSession(io, flags);
  const profileId = flags.profile ? (await resolveProfile(session, flags.profile)).id : undefined;
  const { data } = await session.client.rest.POST('/support/requests', {
    body: { asunto, mensaje, ...(profileId ? { profileId } : {}) },
  });
  if (flags.json) io.stdout.write(`${JSON.stringify(data.data, null, 2)}\n`);
  else
    io.stdout.write(
      `Solicitud ${data.data.folio} recibida (prioridad ${data.data.prioridad}); ` +
        `respuesta antes de ${new Date(data.data.respuesta_esperada_antes_de).toLocaleString('es-MX', { timeZone: 'America/Mexico_City', dateStyle: 'medium', timeStyle: 'short' })} (hora de la Ciudad de México).\n`,
    );
  return EXIT.ok;
}

/** `folio support list [--json]`: your support requests, newest first. */
export async function supportListCommand(io: Io, flags: SupportFlags): Promise<number> {
  const session = await openSession(io, flags);
  const { data } = await session.client.rest.GET('/support/requests');
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(data.data, null, 2)}\n`);
    return EXIT.ok;
  }
  if (!data.data.length) {
    io.stdout.write('Sin solicitudes de soporte. Crea una con `folio support "asunto" "mensaje"`.\n');
    return EXIT.ok;
  }
  const table = renderTable(
    [
      { header: 'folio' },
      { header: 'asunto', max: 48, shrink: true },
      { header: 'prioridad' },
      { header: 'creada' },
    ],
    data.data.map((r) => [r.folio, r.asunto, r.prioridad, datePart(r.created_at)]),
    tableWidth(io),
  );
  io.stdout.write(`${table}\n`);
  return EXIT.ok;
}
