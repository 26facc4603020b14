import { errorBody } from '@folio/api';
import type { Context } from 'hono';
import { MAX_UPLOAD_FILES, MAX_UPLOAD_INFLATED_BYTES } from './limits';
import { type CheckedZip, checkZip, type EntryKind, type UploadedFile, ZipRefused, zipEntries } from './zip';

/** A `files` part of a multipart upload: a text field, a file, or a ZIP already checked. */
export type UploadPart = { text: string } | { file: File } | { zip: CheckedZip };

/** A multipart body's parts, or the 400 to answer a malformed one with. */
export async function readMultipart(c: Context): Promise<FormData | Response> {
  try {
    return await c.req.formData();
  } catch {
    return c.json(errorBody(400, 'Malformed multipart body', { code: 'malformed_multipart' }), 400);
  }
}

/**
 * The `files` of a multipart upload, with every ZIP read and checked (size, entries, names) and the
 * request's files and inflated bytes counted before anything from it is stored; or the refusal to
 * answer with. A file over `kind.maxBytes` is counted but not its bytes: `uploadedFiles` refuses it
 * on its own. `what` names the content in the message (" of XML").
 */
export async function readUploadForm(
  c: Context,
  kind: EntryKind,
  what = '',
): Promise<UploadPart[] | Response> {
  const form = await readMultipart(c);
  if (form instanceof Response) return form;
  if (!form.getAll('files').length)
    return c.json(errorBody(400, 'No `files` in the upload', { code: 'no_files' }), 400);
  const parts: UploadPart[] = [];
  const total = { files: 0, bytes: 0 };
  for (const part of form.getAll('files')) {
    if (typeof part === 'string') {
      parts.push({ text: part });
      total.files++;
    } else if (part.name.toLowerCase().endsWith('.zip')) {
      try {
        const zip = await checkZip(part.name, Buffer.from(await part.arrayBuffer()), kind);
        parts.push({ zip });
        total.files += zip.entries.length;
        total.bytes += zip.bytes;
      } catch (err) {
        if (err instanceof ZipRefused) return c.json(errorBody(err.status, err.message), err.status);
        throw err;
      }
    } else {
      parts.push({ file: part });
      total.files++;
      if (part.size <= kind.maxBytes) total.bytes += part.size;
    }
  }
  if (total.files > MAX_UPLOAD_FILES || total.bytes > MAX_UPLOAD_INFLATED_BYTES) {
    for (const part of parts) if ('zip' in part) part.zip.zip.close();
    const message = `An upload may hold at most ${MAX_UPLOAD_FILES} files and ${MAX_UPLOAD_INFLATED_BYTES / 1024 / 1024} MB${what} once unzipped (this one: ${total.files} files, ${(total.bytes / 1024 / 1024).toFixed(1)} MB); split it`;
    return c.json(errorBody(413, message), 413);
  }
  return parts;
}

/**
 * The files of a checked upload one at a time, ZIP entries inflated as they are reached; a file of
 * the wrong type or over `kind.maxBytes` comes back refused, unread.
 */
export async function* uploadedFiles(parts: UploadPart[], kind: EntryKind): AsyncGenerator<UploadedFile> {
  for (const part of parts) {
    if ('zip' in part) {
      yield* zipEntries(part.zip, kind);
      continue;
    }
    if ('text' in part) {
      yield {
        name: 'files',
        content: '',
        error: 'expected a file, got a text field',
        code: 'file_type_unsupported',
      };
      continue;
    }
    const name = part.file.name || kind.defaultName;
    if (!name.toLowerCase().endsWith(kind.ext))
      yield { name, content: '', error: kind.wrongUpload, code: 'file_type_unsupported' };
    else if (part.file.size > kind.maxBytes)
      yield { name, content: '', error: kind.tooLarge, code: 'file_too_large' };
    else yield { name, content: new Uint8Array(await part.file.arrayBuffer()) };
  }
}
