import { errorBody } from '@folio/api';
import type { Context } from 'hono';
import { MAX_UPLOAD_FILES, MAX_UPLOAD_INFLATED_BYTES } from './limits';
import { checkZip, type EntryKind, ZipRefused } from './zip';

/** A multipart body's parts, or the 400 to answer a malformed one with. */
export async function readMultipart(c: Context): Promise<FormData | Response> {
  try {
    return await c.req.formData();
  } catch {
    return c.json(errorBody(400, 'Malformed multipart body', { code: 'malformed_multipart' }), 400);
  }
}

/**
 * The `files` of a multipart upload, with every ZIP checked (size, entries, names) and the request's
 * files and inflated bytes counted before anything from it is stored; or the refusal to answer with.
 * `maxFileBytes` is the largest file counted (a larger one is refused on its own later); `what` names
 * the content in the message (" of XML").
 */
export async function readUploadForm(
  c: Context,
  opts: { kind?: EntryKind; maxFileBytes: number; what?: string },
): Promise<FormData | Response> {
  const form = await readMultipart(c);
  if (form instanceof Response) return form;
  if (!form.getAll('files').length)
    return c.json(errorBody(400, 'No `files` in the upload', { code: 'no_files' }), 400);
  const total = { files: 0, bytes: 0 };
  for (const part of form.getAll('files')) {
    if (typeof part !== 'string' && part.name.toLowerCase().endsWith('.zip')) {
      try {
        const zip = await checkZip(part.name, Buffer.from(await part.arrayBuffer()), opts.kind);
        total.files += zip.files;
        total.bytes += zip.bytes;
      } catch (err) {
        if (err instanceof ZipRefused) return c.json(errorBody(err.status, err.message), err.status);
        throw err;
      }
    } else {
      total.files++;
      if (typeof part !== 'string' && part.size <= opts.maxFileBytes) total.bytes += part.size;
    }
  }
  if (total.files > MAX_UPLOAD_FILES || total.bytes > MAX_UPLOAD_INFLATED_BYTES) {
    const message = `An upload may hold at most ${MAX_UPLOAD_FILES} files and ${MAX_UPLOAD_INFLATED_BYTES / 1024 / 1024} MB${opts.what ?? ''} once unzipped (this one: ${total.files} files, ${(total.bytes / 1024 / 1024).toFixed(1)} MB); split it`;
    return c.json(errorBody(413, message), 413);
  }
  return form;
}
