import { datePart, renderTable } from './format';
import { EXIT, type Io, tableWidth, UsageError } from './io';
import { openSession } from './session';

export interface KeysFlags {
  url?: string;
  token?: string;
  config?: string;
  name?: string;
  scope?: string;
  'expires-in-days'?: string;
  json?: boolean;
}

/**
 * `folio keys create|list|revoke`: managing keys needs the login session (the server refuses API
 * keys here), so FOLIO_API_KEY is ignored and `folio login` (or --token/FOLIO_TOKEN) is required.
 */
export async function keysCommand(io: Io, args: string[], flags: KeysFlags): Promise<number> {
  const [action, id, ...extra] = args;
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (action !== 'revoke' && id !== undefined) throw new UsageError(`unexpected argument "${id}"`);
  switch (action) {
    case 'list':
      return list(io, flags);
    case 'create':
      return create(io, flags);
    case 'revoke':
      if (!id) throw new UsageError('give the id of the key to revoke (see `folio keys list`)');
      return revoke(io, id, flags);
    default:
      throw new UsageError(action ? `unknown keys action "${action}"` : 'say create, list or revoke');
  }
}

const session = (io: Io, flags: KeysFlags) => openSession(io, flags, { sessionOnly: true });

async function list(io: Io, flags: KeysFlags): Promise<number> {
  const { data } = await (await session(io, flags)).client.rest.GET('/api-keys');
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(data.data, null, 2)}\n`);
    return EXIT.ok;
  }
  if (!data.data.length) {
    io.stdout.write('No active API keys. Create one with `folio keys create --name NAME`.\n');
    return EXIT.ok;
  }
  const table = renderTable(
    [
      { header: 'id' },
      { header: 'nombre', max: 32, shrink: true },
      { header: 'alcance' },
      { header: 'prefijo' },
      { header: 'creada' },
      { header: 'vence' },
      { header: 'último uso' },
    ],
    data.data.map((k) => [
      k.id,
      k.name,
      k.scope,
      `${k.prefix}…`,
      datePart(k.created_at),
      k.expires_at ? datePart(k.expires_at) : 'nunca',
      k.last_used_at ? datePart(k.last_used_at) : 'nunca',
    ]),
    tableWidth(io),
  );
  io.stdout.write(`${table}\n`);
  return EXIT.ok;
}

async function create(io: Io, flags: KeysFlags): Promise<number> {
  if (!flags.name) throw new UsageError('--name is required (what the key is for)');
  const scope = flags.scope ?? 'write';
  if (scope !== 'read' && scope !== 'write') throw new UsageError('--scope must be read or write');
  const days = flags['expires-in-days'];
  const expires = days === undefined ? undefined : Number(days);
  if (expires !== undefined && (!Number.isInteger(expires) || expires < 1 || expires > 365)) {
    throw new UsageError('--expires-in-days must be 1-365');
  }
  const { data } = await (await session(io, flags)).client.rest.POST('/api-keys', {
    body: { name: flags.name, scope, expires_in_days: expires },
  });
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(data.data, null, 2)}\n`);
    return EXIT.ok;
  }
  // The key alone on stdout (so `$(folio keys create …)` captures it); the advice on stderr.
  io.stdout.write(`${data.data.key}\n`);
  io.stderr.write(
    `Created ${data.data.scope} key "${data.data.name}" (${data.data.id}). It is shown only now: ` +
      'store it, then use it as FOLIO_API_KEY or Authorization: Bearer.\n',
  );
  return EXIT.ok;
}

async function revoke(io: Io, id: string, flags: KeysFlags): Promise<number> {
  await (await session(io, flags)).client.rest.DELETE('/api-keys/{id}', { params: { path: { id } } });
  io.stdout.write(`Revoked API key ${id}; it stops working at once.\n`);
  return EXIT.ok;
}
