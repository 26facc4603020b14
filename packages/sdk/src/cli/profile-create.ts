import { EXIT, type Io, UsageError } from './io';
import { openSession } from './session';

export interface ProfileCreateFlags {
  url?: string;
  token?: string;
  config?: string;
  rfc?: string;
  nombre?: string;
  tipo?: string;
  regimen?: string[];
  json?: boolean;
}

/** SAT's RFC: 12 characters for a company (MORAL), 13 for a person (FISICA). */
const tipoFromRfc = (rfc: string) => ([...rfc.trim()].length === 12 ? 'MORAL' : 'FISICA');

/** `folio profiles create --rfc RFC --nombre NAME [--tipo FISICA|MORAL] [--regimen 601]...` */
export async function profileCreateCommand(io: Io, flags: ProfileCreateFlags): Promise<number> {
  if (!flags.rfc) throw new UsageError('folio profiles create needs --rfc');
  if (!flags.nombre) throw new UsageError('folio profiles create needs --nombre');
  const tipo = (flags.tipo ?? tipoFromRfc(flags.rfc)).toUpperCase();
  if (tipo !== 'FISICA' && tipo !== 'MORAL') throw new UsageError('--tipo is FISICA or MORAL');
  const session = await openSession(io, flags);
  const { data } = await session.client.rest.POST('/profiles', {
    body: {
      rfc: flags.rfc,
      nombre: flags.nombre,
      tipo_persona: tipo,
      ...(flags.regimen?.length ? { regimenes_fiscales: flags.regimen } : {}),
    },
  });
  const p = data.data;
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(p, null, 2)}\n`
      : `Created profile ${p.rfc} (${p.nombre}, ${p.tipo_persona}${p.regimenes_fiscales.length ? `, regímenes ${p.regimenes_fiscales.join(' ')}` : ''}): ${p.id}\n`,
  );
  return EXIT.ok;
}
