import { createFolioRestClient } from '../connection';
import { FolioApiError } from '../errors';
import type { components } from '../generated/openapi';
import { type FolioRestClient, lastPage } from '../rest';
import { type Resolved, resolveConfig } from './config';
import { CliError, type Io } from './io';

export type Profile = components['schemas']['Profile'];
export type Invoice = components['schemas']['Invoice'];

export interface Session extends Resolved {
  /** REST only: the command line never loads tRPC (its optional peer may be missing). */
  client: { rest: FolioRestClient };
}

/**
 * The client for a command: FOLIO_API_KEY wins over a stored login (not over an explicit --token);
 * `sessionOnly` commands (managing keys) use the login only, as the server refuses keys there.
 */
export async function openSession(
  io: Io,
  flags: { url?: string; token?: string; config?: string },
  opts: { needToken?: boolean; sessionOnly?: boolean } = {},
): Promise<Session> {
  const resolved = await resolveConfig(io, flags);
  const apiKey = opts.sessionOnly || flags.token ? null : resolved.apiKey;
  if (opts.needToken !== false && !resolved.token && !apiKey) {
    throw new CliError(
      opts.sessionOnly
        ? `Not logged in to ${resolved.url}. Run \`folio login\` (API keys cannot manage keys).`
        : `Not logged in to ${resolved.url}. Run \`folio login\`, or set FOLIO_API_KEY or FOLIO_TOKEN (or pass --token).`,
    );
  }
  const credential = apiKey ? { apiKey } : { token: resolved.token };
  const client = { rest: createFolioRestClient({ baseUrl: resolved.url, ...credential, fetch: io.fetch }) };
  return { ...resolved, client };
}

/** Turns API failures into one readable line. */
export function explain(err: unknown, url: string): string {
  if (err instanceof FolioApiError) {
    if (err.status === 0) return `Cannot reach ${url}: ${err.message}`;
    if (err.status === 401) return `${err.message} (401). Run \`folio login\` again.`;
    return `${err.error} (${err.status}): ${err.message}${err.requestId ? ` [request ${err.requestId}]` : ''}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** `--profile` is an RFC or a profile id; resolved among the caller's own profiles. */
export async function resolveProfile(session: Session, ref: string): Promise<Profile> {
  const { data } = await session.client.rest.GET('/profiles');
  const wanted = ref.trim().toUpperCase();
  const found = data.data.find((p) => p.id === ref.trim() || p.rfc.toUpperCase() === wanted);
  if (found) return found;
  const yours = data.data.map((p) => p.rfc).join(', ');
  throw new CliError(
    `No profile "${ref}" in your account${yours ? ` (yours: ${yours})` : ' (you have none yet)'}. ` +
      'Create it with POST /api/profiles or pass a profile id.',
  );
}

/** Every invoice matching the query, all pages (100 a page). */
export async function listAllInvoices(
  session: Session,
  query: { profileId?: string; mes?: number; año?: number; search?: string },
): Promise<Invoice[]> {
  const out: Invoice[] = [];
  for (let page = 1; ; page++) {
    const { data } = await session.client.rest.GET('/invoices', {
      params: { query: { ...query, page, limit: 100 } },
    });
    out.push(...data.data);
    if (lastPage(data)) return out;
  }
}
