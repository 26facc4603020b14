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

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};

describe('a big import does not freeze the server', () => {
  it(`while a ${FILES}-file import runs, an unrelated request answers in under 100 ms`, {
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
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push(await sample());

    let done = false;
    const upload = fetch(`${server.url}/api/profiles/${p.id}/cfdi`, {
      method: 'POST',
      headers: bearer(u.token),
      body: form,
    }).finally(() => {
      done = true;
    });
    const during: number[] = [];
    while (!done) {
      await new Promise((r) => setTimeout(r, 50));
      const ms = await sample();
      if (!done) during.push(ms);
    }
    const res = await upload;
    expect(res.status).toBe(201);
    expect((await res.json()).data.imported).toBe(FILES);

    // Under 100 ms for nine requests in ten, or three times what the same request takes right before
    // on this machine when that is more (a loaded CI box runs other test files beside this one); and
    // none waits a second. Blocked, a request would wait for the whole import (seconds).
    const bound = Math.max(100, 3 * percentile(idle, 0.9));
    const summary = `idle p90 ${percentile(idle, 0.9).toFixed(0)} ms; during: ${during.length} samples, p90 ${percentile(during, 0.9).toFixed(0)} ms, max ${Math.max(...during).toFixed(0)} ms`;
    expect(during.length, summary).toBeGreaterThanOrEqual(5);
    expect(percentile(during, 0.9), summary).toBeLessThan(bound);
    expect(Math.max(...during), summary).toBeLessThan(1000);
  });
});
