import {
  errorBody,
  getInvoiceXml,
  type ImportFile,
  MAX_CFDI_BYTES,
  openImport,
  XML_TOO_LARGE,
} from '@folio/api';
import type { Context } from 'hono';
import { limitBody } from '../body-limit';
import { type FileHandler, principalOf } from '../file-handler';
import type { AppEnv } from '../types';
import { MAX_UPLOAD_BYTES } from './limits';
import { readUploadForm } from './upload-form';
import { xmlEntries } from './zip';

const XML_TYPES = /^(application|text)\/xml\b/i;

async function* multipartFiles(form: FormData): AsyncGenerator<ImportFile> {
  for (const part of form.getAll('files')) {
    if (typeof part === 'string') {
      yield {
        name: 'files',
        content: '',
        error: 'expected a file, got a text field',
        code: 'file_type_unsupported',
      };
      continue;
    }
    const name = part.name || 'upload';
    const lower = name.toLowerCase();
    if (lower.endsWith('.zip')) {
      yield* xmlEntries(name, Buffer.from(await part.arrayBuffer()));
    } else if (lower.endsWith('.xml')) {
      yield part.size > MAX_CFDI_BYTES
        ? { name, content: '', error: XML_TOO_LARGE, code: 'file_too_large' }
        : { name, content: new Uint8Array(await part.arrayBuffer()) };
    } else {
      yield {
        name,
        content: '',
        error: 'only .xml and .zip files can be imported',
        code: 'file_type_unsupported',
      };
    }
  }
}

// The body's own limit by its type (a lone XML may hold 5 MB), enforced while it arrives.
const xmlLimit = limitBody(MAX_CFDI_BYTES, XML_TOO_LARGE);
const uploadLimit = limitBody(MAX_UPLOAD_BYTES, 'Upload exceeds 120 MB');
const isXml = (c: Context<AppEnv>) => XML_TYPES.test(c.req.header('content-type') ?? '');

/**
 * POST /api/profiles/{profileId}/cfdi/xml: one document as the body, whatever its type (what
 * generated clients send).
 */
export const cfdiUploadXml: FileHandler = {
  bodyLimit: xmlLimit,
  async run(c, call) {
    // The profile and the plan before the body: a document for someone else's profile is not read.
    const upload = await openImport(call.ctx, principalOf(call).user.id, c.req.param('profileId') ?? '');
    const file = { name: 'upload.xml', content: new Uint8Array(await c.req.arrayBuffer()) };
    const data = await upload.run([file], { single: true });
    return c.json({ message: messageOf(data), data }, data.imported ? 201 : 200);
  },
};

/** POST /api/profiles/{profileId}/cfdi: multipart `files` (.xml and .zip), or one XML body. */
export const cfdiUpload: FileHandler = {
  bodyLimit: (c, next) => (isXml(c) ? xmlLimit : uploadLimit)(c, next),
  async run(c, call) {
    if (isXml(c)) return cfdiUploadXml.run(c, call);
    const profileId = c.req.param('profileId') ?? '';
    const type = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\b/i.test(type)) {
      return c.json(errorBody(415, 'Send application/xml or multipart/form-data with `files`'), 415);
    }
    const upload = await openImport(call.ctx, principalOf(call).user.id, profileId);
    const form = await readUploadForm(c, { maxFileBytes: MAX_CFDI_BYTES, what: ' of XML' });
    if (form instanceof Response) return form;
    const data = await upload.run(multipartFiles(form));
    return c.json({ message: messageOf(data), data }, data.imported ? 201 : 200);
  },
};

/** GET /api/invoices/{id}/xml: the document as it was uploaded. */
export const invoiceXml: FileHandler = {
  async run(c, call) {
    const id = c.req.param('id') ?? '';
    const xml = await getInvoiceXml(call.ctx, principalOf(call).user.id, id);
    // The file is whatever was uploaded (an Addenda may hold XHTML with a script): a download,
    // never a document rendered on our origin with the user's cookie.
    return c.body(xml, 200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${id}.xml"`,
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  },
};

const messageOf = (d: { imported: number; duplicates: number; rejected: number }) =>
  `${d.imported} imported, ${d.duplicates} duplicate, ${d.rejected} rejected`;
