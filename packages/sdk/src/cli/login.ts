import { createFolioRestClient } from '../connection';
import { resolveConfig, writeConfig } from './config';
import { CliError, EXIT, type Io } from './io';
import { ask, readStdin } from './prompt';
import { explain } from './session';

export interface LoginFlags {
  url?: string;
  config?: string;
  email?: string;
  password?: string;
  'password-stdin'?: boolean;
}

/** `folio login`: trades email and password for an access token and stores it with the URL. */
export async function login(io: Io, flags: LoginFlags): Promise<number> {
  const cfg = await resolveConfig(io, { url: flags.url, config: flags.config });
  const interactive = Boolean(io.stdin.isTTY);
  let email = flags.email || io.env.FOLIO_EMAIL || '';
  if (!email && interactive) email = (await ask(io, 'Email: ')).trim();
  if (!email) throw new CliError('An email is needed: --email, FOLIO_EMAIL or an interactive terminal.');
  let password = flags.password ?? '';
  if (!password && flags['password-stdin']) password = await readStdin(io);
  if (!password) password = io.env.FOLIO_PASSWORD ?? '';
  if (!password && interactive) password = await ask(io, 'Password: ', true);
  if (!password) {
    throw new CliError('A password is needed: --password-stdin, FOLIO_PASSWORD or an interactive terminal.');
  }

  const rest = createFolioRestClient({ baseUrl: cfg.url, fetch: io.fetch });
  let answer: { accessToken: string; expiresAt: string; user: { email: string } };
  try {
    ({ data: answer } = await rest.POST('/auth/login', { body: { email, password } }));
  } catch (err) {
    throw new CliError(explain(err, cfg.url));
  }
  await writeConfig(cfg.path, {
    ...cfg.stored,
    url: cfg.url,
    token: answer.accessToken,
    email: answer.user.email,
    expiresAt: answer.expiresAt,
  });
  io.stdout.write(
    `Logged in to ${cfg.url} as ${answer.user.email}; the token is saved in ${cfg.path} (valid until ${answer.expiresAt}).\n`,
  );
  return EXIT.ok;
}

/** `folio logout`: revokes the session on the server and forgets the token. */
export async function logout(
  io: Io,
  flags: { url?: string; config?: string; token?: string },
): Promise<number> {
  const cfg = await resolveConfig(io, flags);
  if (cfg.token) {
    const rest = createFolioRestClient({ baseUrl: cfg.url, token: cfg.token, fetch: io.fetch });
    await rest.POST('/auth/logout').catch(() => undefined);
  }
  if (cfg.stored.token) {
    const { token: _dropped, expiresAt: _gone, ...rest } = cfg.stored;
    await writeConfig(cfg.path, rest);
  }
  io.stdout.write(`Logged out of ${cfg.url}.\n`);
  return EXIT.ok;
}
