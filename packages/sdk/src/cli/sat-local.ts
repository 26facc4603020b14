import {
  cfdiFilesOf,
  type DownloadEvent,
  downloadPeriod,
  metadataFilesOf,
  type PackageFile,
  plannedRequests,
  SatDownloadFailed,
  SatGateway,
  type SatQuery,
  SatQueryInvalid,
  SatRefused,
  type SatTarget,
  SatUnavailable,
  type SyncContenido,
  type SyncTipo,
} from '@folio/sat';
import { rootOf } from '../connection';
import { efirmaFile, efirmaPassword } from './efirma';
import { formatBytes, formatDuration } from './format';
import { CliError, EXIT, type Io, UsageError } from './io';
import type { SatSyncFlags } from './sat-sync';
import { openSession, resolveProfile } from './session';

// `folio sat sync --cer F --key F`: local mode (integrations.md §1 "Consent and where the e.firma
// lives", docs/sat-sync.md#local-mode). The @nodecfdi client runs here and signs here; Folio only
// receives what SAT gave, through the same CFDI and metadata imports as any upload.

/** `folio sat sync`'s flags with the e.firma's files: local mode. */
export interface LocalSyncFlags extends SatSyncFlags {
  cer?: string;
  key?: string;
}

/** CFDI sent to the import route per request. */
const UPLOAD_BATCH = 100;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} is one of ${allowed.join(', ')}`);
}

/** The dev server (localhost) has the simulator under /__dev/sat; anything else is SAT itself. */
export function satTargetOf(flag: string | undefined, serverUrl: string): SatTarget {
  const root = rootOf(serverUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(new URL(root).hostname);
  const kind = oneOf('sat', flag ?? (local ? 'simulator' : 'sat'), ['simulator', 'sat'] as const);
  return kind === 'sat' ? { kind } : { kind, origin: root };
}

const label = (q: SatQuery) => `${q.direction} ${q.content} ${q.desde}…${q.hasta}`;

function progressLine(e: DownloadEvent): string {
  const at = `  ${label(e.query)}: `;
  switch (e.kind) {
    case 'requested':
      return `${at}solicitud ${e.requestId} aceptada`;
    case 'shifted':
      return `${at}el SAT respondió ${e.code}; se pide otra vez desde un segundo antes`;
    case 'empty':
      return `${at}el SAT no tiene nada en el periodo`;
    case 'split':
      return `${at}demasiados registros (5003); se pide en dos mitades`;
    case 'waiting':
      return `${at}esperando al SAT ${formatDuration(e.seconds)}`;
    case 'packages':
      return `${at}lista: ${e.count} paquete(s), ${e.cfdi} registro(s)`;
    case 'downloaded':
      return `${at}paquete ${e.packageId} descargado (${formatBytes(e.bytes)})`;
    case 'again':
      return `${at}${e.reason}; se pide de nuevo`;
    case 'retrying':
      return `${at}${e.reason}; otro intento en ${formatDuration(e.seconds)}`;
  }
}

async function collect(files: AsyncIterable<PackageFile>): Promise<PackageFile[]> {
  const out: PackageFile[] = [];
  for await (const f of files) out.push(f);
  return out;
}

/**
 * Local mode: downloads the period from SAT (or the dev simulator) with the e.firma on this machine
 * and uploads each package as it arrives: CFDI first, then metadata (so its missing XML is what Folio
 * still lacks). The e.firma's files and password never leave this process; Folio gets CFDI and metadata.
 */
export async function satLocalSyncCommand(io: Io, flags: LocalSyncFlags): Promise<number> {
  const { desde, hasta } = flags;
  if (!desde || !hasta || !DAY.test(desde) || !DAY.test(hasta))
    throw new UsageError('folio sat sync needs --desde YYYY-MM-DD --hasta YYYY-MM-DD');
  if (desde > hasta) throw new UsageError('--desde must not be after --hasta');
  const tipo = oneOf<SyncTipo>('tipo', flags.tipo ?? 'ambos', ['emitidos', 'recibidos', 'ambos']);
  const contenido = oneOf<SyncContenido>('contenido', flags.contenido ?? 'ambos', [
    'cfdi',
    'metadata',
    'ambos',
  ]);
  const cer = await efirmaFile(io, 'cer', flags.cer);
  const key = await efirmaFile(io, 'key', flags.key);
  const password = await efirmaPassword(io, flags['password-stdin']);
  const session = await openSession(io, flags);
  const target = satTargetOf(flags.sat, session.url);

  let gw: SatGateway;
  try {
    gw = new SatGateway({ cer, key, password }, { target, fetch: io.fetch });
  } catch {
    throw new CliError(
      'No se pudo abrir la e.firma: la contraseña no abre la llave (.key), o la llave no corresponde al certificado (.cer). No se envió nada.',
    );
  } finally {
    key.fill(0);
  }
  const profile = await resolveProfile(session, flags.profile ?? gw.rfc);
  if (profile.rfc.toUpperCase() !== gw.rfc)
    throw new CliError(
      `La e.firma es de ${gw.rfc} y el perfil ${profile.rfc} es de otro RFC: no se descargó nada.`,
    );

  io.stderr.write(
    `Modo local: la e.firma de ${gw.rfc} firma en este equipo y no se envía a Folio. ` +
      `SAT: ${target.kind === 'sat' ? 'el servicio real' : `el simulador de ${target.origin}/__dev/sat`}.\n`,
  );
  const cfdi = { importados: 0, duplicados: 0, rechazados: 0 };
  const metadata = { actualizados: 0, sin_cambio: 0, sin_xml: 0, invalidos: 0 };
  const queries = plannedRequests(tipo, contenido)
    .sort((a, b) => Number(a.content === 'metadata') - Number(b.content === 'metadata'))
    .map((p): SatQuery => ({ ...p, desde, hasta }));

  const upload = async ({ query, zip }: { query: SatQuery; zip: Buffer }) => {
    if (query.content === 'cfdi') {
      const files = await collect(cfdiFilesOf(zip));
      for (let i = 0; i < files.length; i += UPLOAD_BATCH) {
        const report = await session.client.rest.uploadCfdi(profile.id, files.slice(i, i + UPLOAD_BATCH));
        cfdi.importados += report.imported;
        cfdi.duplicados += report.duplicates;
        cfdi.rechazados += report.rejected;
      }
      io.stderr.write(`  ${label(query)}: ${files.length} CFDI subidos a Folio\n`);
      return;
    }
    const files = await collect(metadataFilesOf(zip));
    if (!files.length) return;
    const { data } = await session.client.rest.uploadSatMetadata(profile.id, files);
    metadata.actualizados += data.data.updated;
    metadata.sin_cambio += data.data.unchanged;
    metadata.sin_xml += data.data.missing_xml;
    metadata.invalidos += data.data.invalid;
    io.stderr.write(`  ${label(query)}: metadatos subidos a Folio\n`);
  };

  try {
    await downloadPeriod(gw, queries, {
      sleep: (ms) => (io.sleep ? io.sleep(ms) : new Promise<void>((r) => setTimeout(r, ms))),
      progress: (e) => io.stderr.write(`${progressLine(e)}\n`),
      onPackage: upload,
    });
  } catch (err) {
    if (err instanceof SatQueryInvalid)
      throw new CliError(`El SAT no acepta ese periodo: ${err.problems.join(' ')}`);
    if (err instanceof SatDownloadFailed || err instanceof SatRefused || err instanceof SatUnavailable)
      throw new CliError(err.message);
    throw err;
  }

  if (flags.json) io.stdout.write(`${JSON.stringify({ rfc: gw.rfc, cfdi, metadata }, null, 2)}\n`);
  else {
    // The counts of what was asked for: `--contenido cfdi` prints no metadata line, and the reverse.
    const lines = [
      contenido !== 'metadata' &&
        `CFDI: ${cfdi.importados} importados, ${cfdi.duplicados} duplicados, ${cfdi.rechazados} rechazados.`,
      contenido !== 'cfdi' &&
        `Metadatos: ${metadata.actualizados} actualizados, ${metadata.sin_cambio} sin cambio, ${metadata.sin_xml} sin XML en Folio.`,
    ];
    io.stdout.write(`${lines.filter(Boolean).join(' ')}\n`);
  }
  return EXIT.ok;
}
