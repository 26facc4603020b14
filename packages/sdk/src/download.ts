/** How far a download has come: bytes received so far, and the size when the server announced it. */
export interface DownloadProgress {
  bytes: number;
  /** `Content-Length`; absent for streamed exports, whose size is known only at the end. */
  total?: number;
}

export interface DownloadOptions {
  /** Called for every chunk the body yields, as it is read (not when the response arrives). */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /** Cancels the request, or the body while it is being read. */
  signal?: AbortSignal | undefined;
}

/**
 * A file the API answered with. The body is streamed and can be read once, by one of `body`,
 * `bytes()`, `blob()`, `text()` or `saveTo()`.
 */
export interface FolioDownload {
  /** The name the server gave (`Content-Disposition`, its exact UTF-8 form), e.g. `facturas-XAXX010101000-2025-03.xlsx`. */
  filename: string;
  /** `Content-Type`, e.g. `text/csv; charset=utf-8`. */
  contentType: string;
  /** `Content-Length`, or null when the file is streamed as it is written. */
  size: number | null;
  /** The bytes as they arrive (progress is reported as they are read). */
  body: ReadableStream<Uint8Array>;
  /** The whole file in memory. */
  bytes(): Promise<Uint8Array>;
  /** The whole file as a Blob (typed), e.g. for `URL.createObjectURL` in a browser. */
  blob(): Promise<Blob>;
  /** The whole file decoded as UTF-8 (a csv's BOM is kept: strip it or let the parser do it). */
  text(): Promise<string>;
  /**
   * Node only: streams the body to `path` without holding it in memory. The bytes go to a temporary
   * file beside it that is renamed over `path` once complete, so `path` is either the whole file or
   * untouched; on failure the temporary file is removed. Resolves to the bytes written.
   */
  saveTo(path: string): Promise<{ path: string; bytes: number }>;
  /** The response itself (status, headers such as `X-Request-Id`). */
  response: Response;
}

/**
 * The file name of `Content-Disposition` (RFC 6266): `filename*=UTF-8''…` when present (it keeps Ñ
 * and &), else `filename="…"`. Null without one.
 */
export function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /\bfilename\*\s*=\s*([\w!#$%&+^`{}~-]+)'[^']*'([^;\s]+)/i.exec(disposition);
  if (extended?.[1] && extended[2]) {
    try {
      const bytes = extended[2].replace(/%([0-9a-f]{2})/gi, (_, h: string) =>
        String.fromCharCode(Number.parseInt(h, 16)),
      );
      return /^utf-8$/i.test(extended[1])
        ? new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)))
        : bytes;
    } catch {
      // A malformed extended value: fall back to the plain one.
    }
  }
  const plain = /\bfilename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  return name || null;
}

/**
 * A name that is safe to create in the current folder whatever the server said: no folders, no
 * control characters, not hidden, not empty.
 */
export function safeFilename(name: string, fallback: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const cleaned = last.replace(/[\u0000-\u001f\u007f]/g, '_').replace(/^[.\s]+/, '');
  return cleaned.trim() ? cleaned : fallback;
}

/** The body, counting bytes for `onProgress` as they pass. */
function counted(
  body: ReadableStream<Uint8Array>,
  total: number | null,
  onProgress: DownloadOptions['onProgress'],
) {
  if (!onProgress) return body;
  let bytes = 0;
  const of = () => (total === null ? { bytes } : { bytes, total });
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start: () => onProgress(of()),
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
        onProgress(of());
      },
    }),
  );
}

/** The parts of `node:fs/promises` saveTo uses (typed here so the package needs no Node types). */
interface FileHandle {
  write(data: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
}
interface NodeFs {
  open(path: string, flags: string): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, opts: { force: boolean }): Promise<void>;
}

/** `node:fs/promises` when running on Node, without an import a browser bundler would trip on. */
function nodeFs(): NodeFs {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs/promises') as NodeFs | undefined;
  if (!fs)
    throw new Error('saveTo() needs Node 20.16 or later; elsewhere read `body`, `blob()` or `bytes()`');
  return fs;
}

async function save(
  body: ReadableStream<Uint8Array>,
  path: string,
): Promise<{ path: string; bytes: number }> {
  const fs = nodeFs();
  // Beside the target (same file system, so the rename is atomic), hidden from a casual `ls`.
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
  const tmp = `${path.slice(0, slash)}.${path.slice(slash)}.${crypto.randomUUID().slice(0, 8)}.part`;
  const reader = body.getReader();
  let file: FileHandle | undefined;
  let bytes = 0;
  try {
    file = await fs.open(tmp, 'wx');
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await file.write(value);
      bytes += value.byteLength;
    }
    const handle = file;
    file = undefined;
    await handle.close();
    await fs.rename(tmp, path);
    return { path, bytes };
  } catch (err) {
    await reader.cancel(err).catch(() => undefined);
    await file?.close().catch(() => undefined);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** A successful file response as a {@link FolioDownload}; `fallbackName` when it names no file. */
export function downloadOf(
  response: Response,
  fallbackName: string,
  opts: DownloadOptions = {},
): FolioDownload {
  const length = response.headers.get('content-length');
  const size = length !== null && /^\d+$/.test(length) ? Number(length) : null;
  const raw = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  const body = counted(raw, size, opts.onProgress);
  const whole = () => new Response(body).arrayBuffer();
  const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
  return {
    filename: safeFilename(filenameOf(response.headers.get('content-disposition')) ?? '', fallbackName),
    contentType,
    size,
    body,
    response,
    bytes: async () => new Uint8Array(await whole()),
    blob: async () => new Blob([await whole()], { type: contentType }),
    text: async () => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await whole()),
    saveTo: (path) => save(body, path),
  };
}
