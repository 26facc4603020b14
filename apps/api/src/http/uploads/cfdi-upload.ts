import {
  errorBody,
  getInvoiceXml,
  type ImportFile,
  MAX_CFDI_BYTES,
  openImport,
  XML_TOO_LARGE,
} from '@folio/api';
import type { Context, Hono } from 'hono';
import { limitBody } from '../body-limit';
import { serviceRoute } from '../service-route';
import type { AppDeps, AppEnv } from '../types';
import { MAX_UPLOAD_BYTES } from './limits';
import { readUploadForm } from './upload-form';
import { xmlEntries } from './zip';

/** The upload routes, whose bodies take these limits instead of the JSON body limit. */
export const UPLOAD_PATH = /^\/api\/profiles\/[^/]+\/(cfdi(\/xml)?|sat-metadata)$/;

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
            const form = await readUploadForm(c, { maxFileBytes: MAX_CFDI_BYTES, what: ' of XML' });
            if (form instanceof Response) return form;
            const data = await upload.run(multipartFiles(form));
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
