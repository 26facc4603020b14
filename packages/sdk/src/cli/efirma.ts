import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT, type Io, UsageError } from './io';
import { ask, readStdin } from './prompt';
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
  'password-stdin'?: boolean;
  json?: boolean;
}

/** An e.firma file given by `--cer` or `--key`, read on this machine. */
export async function efirmaFile(io: Io, flag: 'cer' | 'key', path: string | undefined): Promise<Uint8Array> {
  if (!path) throw new UsageError(`--${flag} FILE is needed`);
  try {
    return await readFile(resolve(io.cwd, path));
  } catch {
    throw new UsageError(`--${flag} ${path}: cannot read the file`);
  }
}

/**
 * The e.firma's password: stdin with `--password-stdin`, else FOLIO_EFIRMA_PASSWORD, else asked
 * without echo on a terminal. Never a flag: it would stay in the shell's history.
 */
export async function efirmaPassword(io: Io, fromStdin: boolean | undefined): Promise<string> {
  let password = fromStdin ? await readStdin(io) : (io.env.FOLIO_EFIRMA_PASSWORD ?? '');
  if (!password && !fromStdin && io.stdin.isTTY) password = await ask(io, 'Contraseña de la e.firma: ', true);
  if (!password) {
    throw new CliError(
      'Falta la contraseña de la e.firma: --password-stdin, FOLIO_EFIRMA_PASSWORD o una terminal interactiva.',
    );
  }
  return password;
}

const YES = /^\s*(s|si|sí|y|yes)\s*$/i;

/**
 * `folio sat efirma --cer F --key F --profile <RFC|id> [--acepto]`: stores the profile's e.firma on
 * the server. Needs the login session (the server refuses API keys). The password as efirmaPassword
 * reads it; the consent from --acepto or a yes.
 */
export async function satEfirmaCommand(io: Io, flags: EfirmaFlags): Promise<number> {
  const cer = await efirmaFile(io, 'cer', flags.cer);
  const key = await efirmaFile(io, 'key', flags.key);
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
  const password = await efirmaPassword(io, flags['password-stdin']);

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
