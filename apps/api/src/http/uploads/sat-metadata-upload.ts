import { errorBody, importSatMetadata, type MetadataFile, metadataMessage } from '@folio/api';
import { limitBody } from '../body-limit';
import { type FileHandler, principalOf } from '../file-handler';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_INFLATED_BYTES } from './limits';
import { readUploadForm } from './upload-form';
import { type EntryKind, zipEntries } from './zip';

// POST /api/profiles/{profileId}/sat-metadata: SAT's metadata files (docs/sat-status.md), as the
// portal and the mass-download service hand them out: `.txt`, or `.zip` archives of them. The same
// body, ZIP and inflated-size limits as a CFDI upload; a metadata file may be as large as they allow.

/** A metadata file's limit: one file may list a year of CFDI (about 300 bytes each). */
export const MAX_METADATA_BYTES = MAX_UPLOAD_INFLATED_BYTES;
const TOO_LARGE = `a metadata file may hold at most ${MAX_METADATA_BYTES / 1024 / 1024} MB`;

/** The ZIP's `<uuid>_tercero.txt` lists third parties' CFDI (a PAC's), not the profile's: left out. */
const TXT_ENTRIES: EntryKind = {
  ext: '.txt',
  maxBytes: MAX_METADATA_BYTES,
  tooLarge: TOO_LARGE,
  wrongType: 'not a .txt metadata file',
  skip: (fileName) =>
    /_tercero\.txt$/i.test(fileName)
      ? "a third party's file (_tercero.txt), not the profile's metadata"
      : undefined,
};

const TEXT_TYPES = /^text\/plain\b/i;

async function* multipartFiles(form: FormData): AsyncGenerator<MetadataFile> {
  for (const part of form.getAll('files')) {
    if (typeof part === 'string') {
      yield { name: 'files', content: '', error: 'expected a file, got a text field' };
      continue;
    }
    const name = part.name || 'metadata.txt';
    const lower = name.toLowerCase();
    if (lower.endsWith('.zip')) yield* zipEntries(name, Buffer.from(await part.arrayBuffer()), TXT_ENTRIES);
    else if (lower.endsWith('.txt'))
      yield part.size > MAX_METADATA_BYTES
        ? { name, content: '', error: TOO_LARGE }
        : { name, content: new Uint8Array(await part.arrayBuffer()) };
    else yield { name, content: '', error: 'only .txt metadata files and .zip archives of them can be read' };
  }
}

export const satMetadataUpload: FileHandler = {
  bodyLimit: limitBody(MAX_UPLOAD_BYTES, 'Upload exceeds 120 MB'),
  async run(c, call) {
    const profileId = c.req.param('profileId') ?? '';
    const type = c.req.header('content-type') ?? '';
    let files: Iterable<MetadataFile> | AsyncIterable<MetadataFile>;
    if (TEXT_TYPES.test(type)) {
      const content = new Uint8Array(await c.req.arrayBuffer());
      if (content.byteLength > MAX_METADATA_BYTES) return c.json(errorBody(413, TOO_LARGE), 413);
      files = [{ name: 'metadata.txt', content }];
    } else if (/^multipart\/form-data\b/i.test(type)) {
      const form = await readUploadForm(c, { kind: TXT_ENTRIES, maxFileBytes: MAX_METADATA_BYTES });
      if (form instanceof Response) return form;
      files = multipartFiles(form);
    } else {
      return c.json(
        errorBody(415, 'Send text/plain (one metadata file) or multipart/form-data with `files`'),
        415,
      );
    }
    const data = await importSatMetadata(call.ctx, principalOf(call).user.id, profileId, files);
    return c.json({ message: metadataMessage(data), data }, 200);
  },
};
