import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { quotaPeriod } from '@folio/billing';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { cfdis, usageCounters } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_FILES, MAX_UPLOAD_INFLATED_BYTES } from '../src/http/uploads/limits';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadFiles,
} from './harness';
import { listen } from './listen';

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const sale = () =>
  invoiceXml({ uuid: newUuid(), emisor: ME, receptor: CLIENT, fecha: '2025-03-10T10:00:00' });
const MB = 1024 * 1024;

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function setup(plan: 'PRO' | null = 'PRO') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, { nombre: ME.nombre, rfc: ME.rfc, tipo_persona: 'MORAL' });
  return { u, p };
}
const storedIn = async (profileId: string) =>
  (await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, profileId))).length;

/** One HTTP/1.1 request through `agent` (keep-alive), the way a client reuses its socket. */
function send(
  agent: Agent,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(`${server.url}${path}`, {
        agent,
        method: init.method ?? 'GET',
        headers: init.headers,
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(init.body);
    },
  );
}

describe('a refused body and the connection it came on', () => {
  it("a JSON body over 1 MB gets 413 with Connection: close, and the client's next request works", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = await send(agent, '/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x@example.com', password: 'x'.repeat(MB) }),
      });
      expect(big.status).toBe(413);
      expect(big.headers.connection).toBe('close');
      expect(JSON.parse(big.body)).toMatchObject({ error: 'Payload Too Large' });
      const next = await send(agent, '/health', {});
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('an XML upload declaring 50 MB is refused with 413 before its body is sent', async () => {
    const { u, p } = await setup();
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    const answer = new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('error', reject);
    });
    // Headers only: the 50 MB never follow, so only an answer that does not wait for them arrives.
    socket.write(
      `POST /api/profiles/${p.id}/cfdi HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${u.token}\r\n` +
        `Content-Type: application/xml\r\nContent-Length: ${50 * MB}\r\n\r\n<?xml version="1.0"?>`,
    );
    const head = await answer;
    socket.destroy();
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain('connection: close');
  });

  it('a client that sends a 50 MB XML body whole reads the 413 JSON answer before the connection closes', async () => {
    const { u, p } = await setup();
    // allowHalfOpen: the server's FIN after its answer does not end this side, which sends on.
    const socket = connect({
      port: Number(new URL(server.url).port),
      host: '127.0.0.1',
      allowHalfOpen: true,
    });
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    const closed = new Promise<Error | undefined>((resolve) => {
      let failed: Error | undefined;
      socket.on('error', (err) => {
        failed = err;
      });
      socket.on('close', () => resolve(failed));
    });
    const write = (data: string | Uint8Array) =>
      new Promise<Error | null | undefined>((resolve) => socket.write(data, resolve));
    await write(
      `POST /api/profiles/${p.id}/cfdi/xml HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${u.token}\r\n` +
        `Content-Type: application/xml\r\nContent-Length: ${50 * MB}\r\n\r\n`,
    );
    // The whole body, as a client that does not look at the answer until it has sent it all.
    const chunk = new Uint8Array(MB).fill(0x20);
    let writeError: Error | null | undefined;
    for (let sent = 0; sent < 50 && !writeError; sent++) writeError = await write(chunk);
    socket.end();
    const socketError = await closed;
    expect(writeError ?? socketError).toBeUndefined();
    const text = Buffer.concat(received).toString('utf8');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(Number(/content-length: (\d+)/i.exec(head)?.[1])).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toMatchObject({ error: 'Payload Too Large', code: 'payload_too_large' });
    expect(await storedIn(p.id)).toBe(0);
  });

  it('an XML upload without Content-Length is cut off at 5 MB while it streams', async () => {
    const { u, p } = await setup();
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 120 * MB) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await t.app.request(`/api/profiles/${p.id}/cfdi`, {
      method: 'POST',
      headers: { ...bearer(u.token), 'content-type': 'application/xml' },
      body,
      duplex: 'half',
    } as RequestInit);
    await expectError(res, 413, 'Payload Too Large');
    expect(sent).toBeLessThan(6 * MB);
    expect(await storedIn(p.id)).toBe(0);
  });
});

describe('what one upload may carry', () => {
  it(`more than ${MAX_UPLOAD_FILES} files, as parts or as ZIP entries: 413, nothing stored`, async () => {
    const { u, p } = await setup();
    const parts = Array.from({ length: MAX_UPLOAD_FILES + 1 }, (_, i) => ({
      name: `f${i}.xml`,
      content: sale(),
    }));
    const message = await expectError(await uploadFiles(t, u, p.id, parts), 413, 'Payload Too Large');
    expect(message).toContain(`at most ${MAX_UPLOAD_FILES} files`);
    const entries = Object.fromEntries(
      Array.from({ length: MAX_UPLOAD_FILES }, (_, i) => [`f${i}.xml`, new TextEncoder().encode(sale())]),
    );
    const zipped = [
      { name: 'month.zip', content: Buffer.from(zipSync(entries)) },
      { name: 'one-more.xml', content: sale() },
    ];
    await expectError(await uploadFiles(t, u, p.id, zipped), 413, 'Payload Too Large');
    expect(await storedIn(p.id)).toBe(0);
  });

  it(`more than ${MAX_UPLOAD_INFLATED_BYTES / MB} MB of XML once unzipped: 413, nothing stored`, async () => {
    const { u, p } = await setup();
    // 4.5 MB entries of spaces deflate to almost nothing: 23 of them are a small ZIP and 103 MB inflated.
    const padded = new TextEncoder().encode(sale().padEnd(4.5 * MB, ' '));
    const entries = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`f${i}.xml`, padded]));
    const zip = { name: 'bomb.zip', content: Buffer.from(zipSync(entries, { level: 1 })) };
    expect(zip.content.byteLength).toBeLessThan(5 * MB);
    const message = await expectError(await uploadFiles(t, u, p.id, [zip]), 413, 'Payload Too Large');
    expect(message).toMatch(/100 MB/);
    expect(await storedIn(p.id)).toBe(0);
  });
});

describe('the monthly quota is checked before the work', () => {
  const useUp = async (u: TestUser) =>
    t.handle.db
      .insert(usageCounters)
      .values({ userId: u.id, period: quotaPeriod(), kind: 'cfdi_import', used: 50 });

  it('past it, every file is rejected for the quota without being read (even one that is not XML)', async () => {
    const { u, p } = await setup(null); // FREE: 50 a month
    await useUp(u);
    const res = await uploadFiles(t, u, p.id, [
      { name: 'good.xml', content: sale() },
      { name: 'junk.xml', content: 'not xml at all' },
    ]);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ imported: 0, rejected: 2 });
    for (const line of data.files) expect(line.error).toMatch(/Monthly CFDI import limit/);
    expect(await storedIn(p.id)).toBe(0);
  });

  it('the tRPC import reports the same', async () => {
    const { u, p } = await setup(null);
    await useUp(u);
    const out = await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [
        { name: 'good.xml', content: sale() },
        { name: 'junk.xml', content: 'not xml at all' },
      ],
    });
    expect(out.data.files.map((f) => f.error)).toEqual([
      expect.stringMatching(/Monthly CFDI import limit/),
      expect.stringMatching(/Monthly CFDI import limit/),
    ]);
  });
});
