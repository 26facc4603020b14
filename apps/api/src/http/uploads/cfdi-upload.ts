import { errorBody, getInvoiceXml, MAX_CFDI_BYTES, openImport, XML_TOO_LARGE } from '@folio/api';
import type { Context } from 'hono';
import { limitBody } from '../body-limit';
import { type FileHandler, principalOf } from '../file-handler';
import type { AppEnv } from '../types';
import { MAX_UPLOAD_BYTES } from './limits';
import { readUploadForm, uploadedFiles } from './upload-form';
import type { EntryKind } from './zip';

const XML_TYPES = /^(application|text)\/xml\b/i;

/**
 * Where REST checks the 5 MB of one CFDI, before reading it: a multipart file or a ZIP entry over it
 * is refused on its own (a line of the report), a lone XML body past it is cut off with 413. tRPC's
 * strings are checked when parsed (packages/cfdi xml-input.ts).
 */
const XML_FILES: EntryKind = {
  ext: '.xml',
  maxBytes: MAX_CFDI_BYTES,
  tooLarge: XML_TOO_LARGE,
  wrongType: 'not an .xml file',
  wrongUpload: 'only .xml and .zip files can be imported',
  defaultName: 'upload',
};

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
    const parts = await readUploadForm(c, XML_FILES, ' of XML');
    if (parts instanceof Response) return parts;
    const data = await upload.run(uploadedFiles(parts, XML_FILES));
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
