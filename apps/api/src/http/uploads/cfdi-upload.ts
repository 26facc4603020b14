import { errorBody, getInvoiceXml, MAX_CFDI_BYTES, openImport, XML_TOO_LARGE } from '@folio/api';
import type { Context, Hono } from 'hono';
import { limitBody } from '../body-limit';
import { serviceRoute } from '../service-route';
import type { AppDeps, AppEnv } from '../types';
import { MAX_UPLOAD_BYTES } from './limits';
import { readUploadForm, uploadedFiles } from './upload-form';
import type { EntryKind } from './zip';

/** The upload routes, whose bodies take these limits instead of the JSON body limit. */
export const UPLOAD_PATH = /^\/api\/profiles\/[^/]+\/(cfdi(\/xml)?|sat-metadata)$/;

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

/**
 * POST /api/profiles/{profileId}/cfdi (multipart `files`, or one XML body), POST …/cfdi/xml (the raw
 * body is one document, whatever its type: what generated clients send) and GET /api/invoices/{id}/xml.
 */
export function mountCfdiFiles(app: Hono<AppEnv>, deps: AppDeps): void {
  // The body's own limit by its type (a lone XML may hold 5 MB), enforced while it arrives.
  const xmlLimit = limitBody(MAX_CFDI_BYTES, XML_TOO_LARGE);
  const uploadLimit = limitBody(MAX_UPLOAD_BYTES, 'Upload exceeds 120 MB');

  // One document as the body: what POST …/cfdi/xml always takes, whatever its type (generated clients).
  const xmlDocument = (c: Context<AppEnv>) =>
    serviceRoute(c, deps, async (ctx, auth) => {
      // The profile and the plan before the body: a document for someone else's profile is not read.
      const upload = await openImport(ctx, auth.user.id, c.req.param('profileId') ?? '');
      const file = { name: 'upload.xml', content: new Uint8Array(await c.req.arrayBuffer()) };
      const data = await upload.run([file], { single: true });
      return c.json({ message: messageOf(data), data }, data.imported ? 201 : 200);
    });

  app.post('/api/profiles/:profileId/cfdi/xml', xmlLimit, xmlDocument);
  app.post(
    '/api/profiles/:profileId/cfdi',
    (c, next) => (XML_TYPES.test(c.req.header('content-type') ?? '') ? xmlLimit : uploadLimit)(c, next),
    (c) =>
      XML_TYPES.test(c.req.header('content-type') ?? '')
        ? xmlDocument(c)
        : serviceRoute(c, deps, async (ctx, auth) => {
            const profileId = c.req.param('profileId');
            const type = c.req.header('content-type') ?? '';
            if (!/^multipart\/form-data\b/i.test(type)) {
              return c.json(errorBody(415, 'Send application/xml or multipart/form-data with `files`'), 415);
            }
            const upload = await openImport(ctx, auth.user.id, profileId);
            const parts = await readUploadForm(c, XML_FILES, ' of XML');
            if (parts instanceof Response) return parts;
            const data = await upload.run(uploadedFiles(parts, XML_FILES));
            return c.json({ message: messageOf(data), data }, data.imported ? 201 : 200);
          }),
  );

  app.get('/api/invoices/:id/xml', (c) =>
    serviceRoute(c, deps, async (ctx, auth) => {
      const id = c.req.param('id');
      const xml = await getInvoiceXml(ctx, auth.user.id, id);
      // The file is whatever was uploaded (an Addenda may hold XHTML with a script): a download,
      // never a document rendered on our origin with the user's cookie.
      return c.body(xml, 200, {
        'Content-Type': 'application/xml; charset=utf-8',
        'Content-Disposition': `attachment; filename="${id}.xml"`,
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
    }),
  );
}

const messageOf = (d: { imported: number; duplicates: number; rejected: number }) =>
  `${d.imported} imported, ${d.duplicates} duplicate, ${d.rejected} rejected`;
