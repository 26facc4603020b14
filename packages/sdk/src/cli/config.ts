import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Io } from './io';

export const DEFAULT_URL = 'http://localhost:3000';

/** What `folio login` remembers. */
export interface StoredConfig {
  url?: string;
  token?: string;
  email?: string;
  expiresAt?: string;
}

/** `FOLIO_CONFIG`, else `$XDG_CONFIG_HOME/folio/config.json`, else `~/.config/folio/config.json`. */
export function configPath(io: Io, flag?: string): string {
  if (flag) return flag;
  if (io.env.FOLIO_CONFIG) return io.env.FOLIO_CONFIG;
  const base = io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), '.config');
  return join(base, 'folio', 'config.json');
}

export async function readConfig(path: string): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as StoredConfig) : {};
  } catch {
    throw new Error(`${path} is not valid JSON; fix it or delete it and run \`folio login\` again`);
  }
}

/** Written atomically and readable by the owner only: it holds an access token. */
export async function writeConfig(path: string, config: StoredConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

export interface Resolved {
  url: string;
  token: string | null;
  /** `FOLIO_API_KEY`: a script's credential, used instead of the login token where a key may be. */
  apiKey: string | null;
  path: string;
  stored: StoredConfig;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/**
 * Flags win over the environment (`FOLIO_URL`, `FOLIO_TOKEN`), which wins over the config file. A
 * stored token is used only against the server it was issued by.
 */
export async function resolveConfig(
  io: Io,
  flags: { url?: string; token?: string; config?: string },
): Promise<Resolved> {
  const path = configPath(io, flags.config);
  const stored = await readConfig(path);
  const url = trimSlash(flags.url || io.env.FOLIO_URL || stored.url || DEFAULT_URL);
  const storedToken = stored.token && trimSlash(stored.url ?? DEFAULT_URL) === url ? stored.token : null;
  const token = flags.token || io.env.FOLIO_TOKEN || storedToken || null;
  return { url, token, apiKey: io.env.FOLIO_API_KEY || null, path, stored };
}
