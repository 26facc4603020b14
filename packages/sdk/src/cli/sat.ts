import { formatCount, renderTable } from './format';
import { EXIT, type Io, tableWidth, UsageError } from './io';
import { intFlag } from './listings';
import { openSession } from './session';

/** `folio sat search <texto> [--limit N] [--json]`: the SAT product and service catalog. */
export async function satSearchCommand(
  io: Io,
  words: string[],
  flags: { url?: string; token?: string; config?: string; limit?: string; json?: boolean },
): Promise<number> {
  const query = words.join(' ').trim();
  if (!query) throw new UsageError('folio sat search needs the text to look for');
  const limit = intFlag('limit', flags.limit, 1, 100);
  const session = await openSession(io, flags);
  const { data } = await session.client.rest.GET('/sat/search', { params: { query: { query, limit } } });
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return EXIT.ok;
  }
  if (!data.items.length) {
    io.stdout.write(`Ninguna clave del catálogo del SAT coincide con «${query}».\n`);
    return EXIT.ok;
  }
  const table = renderTable(
    [
      { header: 'clave' },
      { header: 'descripción', max: 60, shrink: true },
      { header: 'IVA trasladado' },
      { header: 'vigente hasta' },
    ],
    data.items.map((p) => [p.id, p.descripcion, p.incluir_iva_trasladado, p.fecha_fin_vigencia ?? '—']),
    tableWidth(io),
  );
  io.stdout.write(`${table}\n\n${formatCount(data.items.length)} de ${formatCount(data.total)} clave(s)\n`);
  return EXIT.ok;
}
