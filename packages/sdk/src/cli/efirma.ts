import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT, type Io, UsageError } from './io';
import { ask } from './prompt';
import { openSession, resolveProfile } from './session';

/**
 * What the taxpayer agrees to, as the server records it (packages/api's CONSENT_TEXT and
 * CONSENT_VERSION; apps/api/test/cli-efirma-support.test.ts holds them equal). The CLI shows it
 * before sending anything.
 */
export const CONSENT_VERSION = '2026-11-v1';
export const CONSENT_TEXT =
  'Autorizo a Folio a guardar mi e.firma cifrada y a usarla solo para descargar mis CFDI y sus metadatos del SAT y consultar su estado. Puedo borrarla en cualquier momento.';

export interface EfirmaFlags {
  url?: string;
  token?: string;
  config?: string;
  profile?: string;
  cer?: string;
  key?: string;
  acepto?: boolean;
  json?: boolean;
}

async function fileOf(io: Io, flag: 'cer' | 'key', path: string | undefined): Promise<Uint8Array> {
  if (!path) throw new UsageError(`folio sat efirma needs --${flag} FILE`);
  try {
    return await readFile(resolve(io.cwd, path));
  } catch {
    throw new UsageError(`--${flag} ${path}: cannot read the file`);
  }
}

const YES = /^\s*(s|si|sí|y|yes)\s*$/i;

/**
 * `folio sat efirma --cer F --key F --profile <RFC|id> [--acepto]`: stores the profile's e.firma on
 * the server. Needs the login session (the server refuses API keys). The password comes from
 * FOLIO_EFIRMA_PASSWORD or is asked without echo on a terminal; the consent from --acepto or a yes.
 */
export async function satEfirmaCommand(io: Io, flags: EfirmaFlags): Promise<number> {
  const cer = await fileOf(io, 'cer', flags.cer);
  const key = await fileOf(io, 'key', flags.key);
  if (!flags.profile) throw new UsageError('folio sat efirma needs --profile <RFC|id>');
  const interactive = Boolean(io.stdin.isTTY);

  io.stderr.write(
    `Folio guardará tu e.firma cifrada en el servidor. Consentimiento (versión ${CONSENT_VERSION}):\n  ${CONSENT_TEXT}\n` +
      'Si prefieres que no salga de tu equipo, usa el modo local: folio sat sync --cer F --key F.\n',
  );
  const accepted = flags.acepto || (interactive && YES.test(await ask(io, '¿Aceptas? (sí/no): ')));
  if (!accepted) {
    throw new CliError('Sin consentimiento no se guarda la e.firma: pasa --acepto o responde «sí».');
  }
  let password = io.env.FOLIO_EFIRMA_PASSWORD ?? '';
  if (!password && interactive) password = await ask(io, 'Contraseña de la e.firma: ', true);
  if (!password) {
    throw new CliError(
      'Falta la contraseña de la e.firma: FOLIO_EFIRMA_PASSWORD o una terminal interactiva.',
    );
  }

  const session = await openSession(io, flags, { sessionOnly: true });
  const profile = await resolveProfile(session, flags.profile);
  const data = await session.client.rest.uploadEfirma({
    profileId: profile.id,
    cer,
    key,
    password,
    consentimiento: true,
  });
  if (flags.json) io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  else
    io.stdout.write(
      `e.firma guardada para ${data.rfc} (${profile.nombre}): certificado ${data.numero_certificado}, ` +
        `válida hasta ${data.valido_hasta.slice(0, 10)}.\n`,
    );
  return EXIT.ok;
}
