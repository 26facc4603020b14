import { errorBody, importSatMetadata, type MetadataFile, metadataMessage } from '@folio/api';
import { limitBody } from '../body-limit';
import { type FileHandler, principalOf } from '../file-handler';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_INFLATED_BYTES } from './limits';
import { readUploadForm, uploadedFiles } from './upload-form';
import type { EntryKind } from './zip';

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
  wrongUpload: 'only .txt metadata files and .zip archives of them can be read',
  defaultName: 'metadata.txt',
  skip: (fileName) =>
    /_tercero\.txt$/i.test(fileName)
      ? "a third party's file (_tercero.txt), not the profile's metadata"
      : undefined,
};

const TEXT_TYPES = /^text\/plain\b/i;

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
      const parts = await readUploadForm(c, TXT_ENTRIES);
      if (parts instanceof Response) return parts;
      files = uploadedFiles(parts, TXT_ENTRIES);
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
