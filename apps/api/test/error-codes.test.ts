// Error codes as a contract (issue 27): one enum, documented entry by entry, the OpenAPI document's
// ErrorBody.code, linked from every error answer; plan_required says how to upgrade; an RFC error
// names its field; rejected import files carry a code; a raw UTF-8 URL gets the JSON error shape.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AppRouter } from '@folio/api';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@folio/api';
import { buildOpenApiDocument } from '@folio/api/openapi';
import { REJECTION_CODES } from '@folio/cfdi';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import type { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  bearer,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  trpcClient,
  uploadFiles,
} from './harness';
import { listen } from './listen';

const ERRORS_MD = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const headings = [...ERRORS_MD.matchAll(/^### (\S+)$/gm)].map((m) => m[1]);
const linkOf = (code: string) => `</api/docs/errors.md#${code}>; rel="help"`;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('one enum of error codes', () => {
  it('every code in ERROR_CODES has its entry in docs/errors.md, and every entry is a code', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect([...headings].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('the error body and the helpers take only the enum (TypeScript holds every call site)', () => {
    expectTypeOf<ErrorBody['code']>().toEqualTypeOf<ErrorCode>();
  });

  it("the OpenAPI ErrorBody.code is the enum, and an import file's code the rejection codes", () => {
    const doc = buildOpenApiDocument({ version: 'test', serverUrl: 'http://localhost/api' });
    const schemas = doc.components?.schemas as Record<string, any>;
    expect(schemas.ErrorBody.properties.code.enum).toEqual([...ERROR_CODES]);
    const fileCode = schemas.ImportReport.properties.files.items.properties.code;
    expect(fileCode.enum).toEqual([...REJECTION_CODES]);
    for (const code of REJECTION_CODES) expect(ERRORS_MD).toContain(`| \`${code}\` |`);
  });
});

describe('the Link to the entry', () => {
  it('every error answer links its code entry, and that entry is served', async () => {
    const u = await signUp(t);
    const cases: [Response, ErrorCode][] = [
      [await request(t, 'GET', '/api/nowhere'), 'route_not_found'],
      [await request(t, 'GET', '/api/profiles'), 'unauthorized'],
      [await request(t, 'GET', '/api/invoices?mes=13', { headers: bearer(u.token) }), 'validation_failed'],
      [await request(t, 'GET', '/api/invoices?anio=2025', { headers: bearer(u.token) }), 'unknown_parameter'],
    ];
    for (const [res, code] of cases) {
      expect((await res.json()).code).toBe(code);
      expect(res.headers.get('link')).toBe(linkOf(code));
    }
    const trpc = await t.app.request('/trpc/profiles.list');
    expect(trpc.status).toBe(401);
    expect(trpc.headers.get('link')).toBe(linkOf('unauthorized'));
    const doc = await t.app.request('/api/docs/errors.md');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await doc.text()).toContain('### route_not_found');
  });
});

describe('what each error says', () => {
  it('plan_required names the plans that have the feature and the route that upgrades', async () => {
    const u = await signUpVerified(t);
    const res = await request(t, 'POST', '/api/api-keys', { headers: bearer(u.token), body: { name: 'ci' } });
    const message = await expectError(res, 403, 'Forbidden');
    expect(message).toBe(
      'API access requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    );
    expect(res.headers.get('link')).toBe(linkOf('plan_required'));
  });

  it('an RFC format error names the field `rfc` (REST fields, tRPC data.fields)', async () => {
    const u = await signUp(t);
    const input = { nombre: 'X', rfc: 'XAXX010101000', tipo_persona: 'FISICA', regimenes_fiscales: ['612'] };
    const res = await request(t, 'POST', '/api/profiles', { headers: bearer(u.token), body: input });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'rfc_invalid', fields: [{ path: 'rfc', message: body.message }] });
    const err = await trpcClient(t, u.token)
      .profiles.create.mutate(input as never)
      .catch((e: unknown) => e);
    expect(((err as TRPCClientError<AppRouter>).data as Record<string, unknown>).fields).toEqual([
      { path: 'rfc', message: body.message },
    ]);
  });

  it('a rejected import file carries a code beside its Spanish motivo', async () => {
    const me: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
    const other: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
    const stranger: Party = { rfc: 'XYZ010101AB1', nombre: 'Otra', regimen: '601' };
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const p = await createProfile(t, u, { nombre: me.nombre, rfc: me.rfc, tipo_persona: 'MORAL' });
    const fecha = '2025-03-10T10:00:00';
    const sale = invoiceXml({ uuid: newUuid(), emisor: me, receptor: other, fecha });
    const res = await uploadFiles(t, u, p.id, [
      { name: 'roto.xml', content: '<cfdi:Comprobante' },
      {
        name: 'ajeno.xml',
        content: invoiceXml({ uuid: newUuid(), emisor: stranger, receptor: other, fecha }),
      },
      { name: 'sin-timbre.xml', content: sale.replace(/<tfd:TimbreFiscalDigital[^>]*\/>/, '') },
      { name: 'nota.txt', content: 'hola' },
    ]);
    const { files } = (await res.json()).data as { files: { status: string; code: string; error: string }[] };
    expect(files.map((f) => [f.status, f.code])).toEqual([
      ['rejected', 'xml_malformed'],
      ['rejected', 'rfc_not_party'],
      ['rejected', 'unstamped'],
      ['rejected', 'file_type_unsupported'],
    ]);
    expect(files[2]!.error).toBe('CFDI sin timbre (no TimbreFiscalDigital UUID)');
  });
});

describe('a URL Node cannot parse', () => {
  /** Sends raw bytes on a fresh socket and answers everything the server wrote before closing. */
  async function raw(url: string, bytes: Buffer) {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    await new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
      socket.write(bytes);
    });
    const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
    return { head, body };
  }
  const get = (target: Buffer) =>
    Buffer.concat([
      Buffer.from('GET '),
      target,
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]);

  it('a raw UTF-8 `año` in the query gets 400 with the JSON error shape, not a bare 400', async () => {
    const server = await listen(t);
    try {
      const { head, body } = await raw(server.url, get(Buffer.from('/api/invoices?año=2025', 'utf8')));
      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(head).toContain('Content-Type: application/json');
      expect(head).toContain(`Link: ${linkOf('request_target_invalid')}`);
      expect(JSON.parse(body)).toEqual({
        error: 'Bad Request',
        message: 'The request URL holds raw non-ASCII bytes: percent-encode it (año → a%C3%B1o)',
        code: 'request_target_invalid',
      });
      // Percent-encoded, the same query reaches the route (which wants a login).
      const encoded = await raw(server.url, get(Buffer.from('/api/invoices?a%C3%B1o=2025')));
      expect(encoded.head).toMatch(/^HTTP\/1\.1 401 /);
    } finally {
      await server.close();
    }
  });
});

describe('the public document', () => {
  it('leaves out the payment webhook, which still answers, and names @folio/sdk', async () => {
    const doc = buildOpenApiDocument({ version: 'test', serverUrl: 'http://localhost/api' });
    // Folio's own outgoing webhooks (/webhook-endpoints, the `webhooks` section) are public; Stripe's is not.
    expect(Object.keys(doc.paths ?? {}).filter((p) => p.startsWith('/webhooks/'))).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('webhooks-stripe');
    expect(doc.info.description).toContain('@folio/sdk');
    const unsigned = await request(t, 'POST', '/api/webhooks/stripe', { body: {} });
    expect(unsigned.status).toBe(400); // routed (a signature is missing), not route_not_found
    expect((await unsigned.json()).code).not.toBe('route_not_found');
  });
});
