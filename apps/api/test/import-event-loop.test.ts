import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProfile, setPlan, signUp, startTestApp, type TestApp } from './harness';
import { listen } from './listen';

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

const FILES = 500; // the size of import the review timed

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

describe('a big import does not freeze the server', () => {
  it(`while a ${FILES}-file import runs, other requests keep being answered and none waits a third of it`, {
    timeout: 180_000,
  }, async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'ENTERPRISE');
    const p = await createProfile(t, u, { nombre: ME.nombre, rfc: ME.rfc, tipo_persona: 'MORAL' });
    const other = await signUp(t);
    const form = new FormData();
    for (let i = 0; i < FILES; i++) {
      const xml = invoiceXml({ uuid: newUuid(), emisor: ME, receptor: CLIENT, fecha: '2025-03-10T10:00:00' });
      form.append('files', new File([xml], `f${i}.xml`));
    }
    // Another user's ordinary request (token check, session query), timed over the socket. A reset
    // connection counts as never answered.
    const sample = async () => {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}/api/auth/me`, { headers: bearer(other.token) });
        await res.arrayBuffer();
        return res.status === 200 ? performance.now() - started : Number.POSITIVE_INFINITY;
      } catch {
        return Number.POSITIVE_INFINITY;
      }
    };
    await sample(); // the connection is open before the clock starts
    let done = false;
    const started = performance.now();
    const upload = fetch(`${server.url}/api/profiles/${p.id}/cfdi`, {
      method: 'POST',
      headers: bearer(u.token),
      body: form,
    }).finally(() => {
      done = true;
    });
    const during: number[] = [];
    while (!done) {
      await new Promise((r) => setTimeout(r, 10));
      // Every request sent while the import runs counts, including one it holds up to its end.
      if (!done) during.push(await sample());
    }
    const res = await upload;
    const importMs = performance.now() - started;
    expect(res.status).toBe(201);
    expect((await res.json()).data.imported).toBe(FILES);

    // Against the import's own length, so a slow or busy machine (CI runs other test files beside
    // this one) scales both sides: requests keep being answered, none waits a third of the import.
    // Parsing without handing the loop back between files fails both (one answer, held 80 % of it).
    const summary = `import ${importMs.toFixed(0)} ms; during: ${during.length} answers, longest ${Math.max(...during).toFixed(0)} ms`;
    expect(during.length, summary).toBeGreaterThanOrEqual(3);
    expect(Math.max(...during), summary).toBeLessThan(importMs / 3);
  });
});
