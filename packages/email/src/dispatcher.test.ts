import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DbHandle } from '@folio/db';
import { emailOutbox } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmailDispatcher, type EmailDispatcherOptions } from './dispatcher';
import { enqueueEmail } from './outbox';

/** A stand-in for the Resend API: records each request and answers with `reply`. */
interface FakeRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}
let requests: FakeRequest[] = [];
let reply: (n: number) => { status: number; body: unknown; delayMs?: number };
let server: Server;
let baseUrl: string;

let handle: DbHandle;
let logs: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
const log = {
  info: (obj: object, msg?: string) => logs.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
  warn: (obj: object, msg?: string) => logs.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  error: (obj: object, msg?: string) =>
    logs.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') });
      const { status, body, delayMs = 0 } = reply(requests.length);
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle = await testDb();
});

afterAll(async () => {
  await handle?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  await handle.db.delete(emailOutbox);
  requests = [];
  logs = [];
  reply = (n) => ({ status: 200, body: { id: `re_${n}` } });
});

const verifyUrl = 'http://localhost:3000/verify-email?token=tok_123';
const enqueue = (to = 'ana@example.com') =>
  enqueueEmail(handle.db, {
    to,
    subject: 'Confirma tu correo en Folio',
    html: '<p>secret body</p>',
    text: `Hola\n\nVerificar correo ${verifyUrl}\n\nEl enlace caduca en 24 horas.`,
    kind: 'verify-email',
  });
const rowOf = async (id: string) =>
  (await handle.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;
const dispatcher = (extra: Partial<EmailDispatcherOptions> = {}) =>
  createEmailDispatcher({
    db: handle.db,
    from: 'Folio <no-reply@folio.test>',
    log,
    resendApiKey: 're_test_key',
    resendBaseUrl: baseUrl,
    ...extra,
  });
/** Makes a waiting row due again, as if its retry time had passed. */
const makeDue = (id: string) =>
  handle.db
    .update(emailOutbox)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(eq(emailOutbox.id, id));

describe('without an API key', () => {
  it('marks a due row logged and logs its link, never the body, and sends nothing', async () => {
    const id = await enqueue();
    expect(await dispatcher({ resendApiKey: undefined }).dispatchDue()).toBe(1);
    expect((await rowOf(id)).status).toBe('logged');
    expect(requests).toHaveLength(0);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      level: 'info',
      obj: { to: 'ana@example.com', emailId: id, url: verifyUrl },
    });
    expect(logs[0]!.msg).toContain('no RESEND_API_KEY');
    expect(logs[0]!.msg).toContain(verifyUrl);
    expect(JSON.stringify(logs)).not.toContain('secret body');
  });
});

describe('with an API key', () => {
  it('sends a row once, keyed by its outbox id, and records it as sent with the provider id', async () => {
    const id = await enqueue();
    const d = dispatcher();
    expect(await d.dispatchDue()).toBe(1);
    expect(await d.dispatchDue()).toBe(0);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req!.path).toBe('/emails');
    expect(req!.headers['idempotency-key']).toBe(id);
    expect(req!.headers.authorization).toBe('Bearer re_test_key');
    expect(req!.body).toMatchObject({
      from: 'Folio <no-reply@folio.test>',
      to: 'ana@example.com',
      subject: 'Confirma tu correo en Folio',
      html: '<p>secret body</p>',
    });
    expect(req!.body.text).toContain(verifyUrl);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', providerId: 're_1', attempts: 0, error: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('an API error (422) marks the row failed with one attempt and a retry time in the future', async () => {
    reply = () => ({
      status: 422,
      body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
    });
    const id = await enqueue();
    const d = dispatcher();
    expect(await d.dispatchDue()).toBe(1);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, providerId: null, sentAt: null });
    expect(row.error).toContain('validation_error');
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', obj: expect.objectContaining({ emailId: id }) }),
    );
    // Not retried before its time.
    expect(await d.dispatchDue()).toBe(0);
    expect(requests).toHaveLength(1);
  });

  it('a failed row (500) is retried with the same idempotency key once its retry time has passed', async () => {
    reply = (n) => (n === 1 ? { status: 500, body: 'oops' } : { status: 200, body: { id: 're_ok' } });
    const id = await enqueue();
    const d = dispatcher();
    await d.dispatchDue();
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 1 });

    await makeDue(id);
    expect(await d.dispatchDue()).toBe(1);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', providerId: 're_ok', error: null });
    expect(requests.map((r) => r.headers['idempotency-key'])).toEqual([id, id]);
  });

  it('backs off exponentially and stops retrying after maxAttempts', async () => {
    reply = () => ({
      status: 500,
      body: { statusCode: 500, name: 'internal_server_error', message: 'down' },
    });
    const id = await enqueue();
    const d = dispatcher({ maxAttempts: 3 });
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await makeDue(id);
      expect(await d.dispatchDue()).toBe(1);
      const row = await rowOf(id);
      waits.push(row.nextAttemptAt.getTime() - Date.now());
    }
    expect((await rowOf(id)).attempts).toBe(3);
    expect(waits[1]!).toBeGreaterThan(waits[0]! * 1.5);
    expect(waits[2]!).toBeGreaterThan(waits[1]! * 1.5);
    expect(logs.at(-1)).toMatchObject({ level: 'error', msg: 'email send failed; giving up' });

    await makeDue(id);
    expect(await d.dispatchDue()).toBe(0);
    expect(requests).toHaveLength(3);
  });

  it('does not pick up a failed row that already used maxAttempts (default 5)', async () => {
    const id = await enqueue();
    await handle.db.update(emailOutbox).set({ status: 'failed', attempts: 5 }).where(eq(emailOutbox.id, id));
    expect(await dispatcher().dispatchDue()).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it('delivers every due row, oldest first, across several batches', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const id = await enqueue(`user${i}@example.com`);
      await handle.db
        .update(emailOutbox)
        .set({ createdAt: sql`now() - make_interval(secs => ${100 - i})` })
        .where(eq(emailOutbox.id, id));
      ids.push(id);
    }
    expect(await dispatcher().dispatchDue()).toBe(23);
    expect(requests.map((r) => r.headers['idempotency-key'])).toEqual(ids);
  });

  it('two dispatchers running at once send each row exactly once', async () => {
    const ids = await Promise.all(Array.from({ length: 15 }, (_, i) => enqueue(`user${i}@example.com`)));
    const [a, b] = await Promise.all([dispatcher().dispatchDue(), dispatcher().dispatchDue()]);
    expect(a + b).toBe(15);
    expect(requests.map((r) => r.headers['idempotency-key']).sort()).toEqual([...ids].sort());
  });
});

describe('scheduling', () => {
  it('kick delivers soon, and a burst of kicks is coalesced into one request per row', async () => {
    const d = dispatcher();
    const id = await enqueue();
    d.kick();
    d.kick();
    d.kick();
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('sent'));
    await d.stop();
    expect(requests).toHaveLength(1);
  });

  it('a kick during a dispatch in flight runs one more pass that picks up the newer row', async () => {
    reply = (n) => ({ status: 200, body: { id: `re_${n}` }, delayMs: n === 1 ? 150 : 0 });
    const d = dispatcher();
    const first = await enqueue();
    d.kick();
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    const second = await enqueue('bea@example.com');
    d.kick();
    await vi.waitFor(async () => expect((await rowOf(second)).status).toBe('sent'));
    expect((await rowOf(first)).status).toBe('sent');
    await d.stop();
  });

  it('stop waits for the dispatch in flight and no later tick runs', async () => {
    reply = (n) => ({ status: 200, body: { id: `re_${n}` }, delayMs: 200 });
    const d = dispatcher();
    const id = await enqueue();
    d.start(20);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    await d.stop();
    expect((await rowOf(id)).status).toBe('sent');
    const later = await enqueue('bea@example.com');
    await new Promise((r) => setTimeout(r, 80));
    expect((await rowOf(later)).status).toBe('pending');
  });

  it('kick never throws: a failing dispatch is logged', async () => {
    // The database itself fails every claim: the outbox table is briefly missing.
    await handle.db.execute(sql`alter table email_outbox rename to email_outbox_away`);
    try {
      const d = dispatcher();
      expect(() => d.kick()).not.toThrow();
      await vi.waitFor(() =>
        expect(logs).toContainEqual(expect.objectContaining({ msg: 'email dispatch failed' })),
      );
      await d.stop();
    } finally {
      await handle.db.execute(sql`alter table email_outbox_away rename to email_outbox`);
    }
  });
});

describe('links that are credentials (issue 25: the outbox must not yield a live reset link)', () => {
  const secretLinks = { 'verify-email': 24 * 3600_000 };
  const holdsLink = async (id: string) => {
    const row = await rowOf(id);
    return row.text.includes('tok_123') || row.html.includes('tok_123');
  };
  /** Moves a row's creation back `hours`, as if it had been written then. */
  const age = (id: string, hours: number) =>
    handle.db
      .update(emailOutbox)
      .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
      .where(eq(emailOutbox.id, id));

  it('once sent, a mail of a secret-link kind keeps no usable link; a mail of another kind is kept whole', async () => {
    const secret = await enqueue();
    const plain = await enqueueEmail(handle.db, {
      to: 'ana@example.com',
      subject: 'Tu contraseña de Folio cambió',
      html: '<a href="http://localhost:3000/auth/forgot-password?token=tok_123">x</a>',
      text: 'http://localhost:3000/auth/forgot-password?token=tok_123',
      kind: 'password-changed',
    });
    expect(await dispatcher({ secretLinks }).dispatchDue()).toBe(2);
    expect(requests.map((r) => r.body.text as string).every((t) => t.includes('tok_123'))).toBe(true);
    expect(await rowOf(secret)).toMatchObject({ status: 'sent' });
    expect(await holdsLink(secret)).toBe(false);
    expect((await rowOf(secret)).text).toContain('verify-email?token=[retirado]\n');
    expect(await holdsLink(plain)).toBe(true);
  });

  it('the whole token goes, whatever its characters, in text and in HTML attributes', async () => {
    const id = await enqueueEmail(handle.db, {
      to: 'ana@example.com',
      subject: 'Confirma tu correo en Folio',
      html: '<a href="http://x.test/verify-email?token=s3cr3ts">http://x.test/verify-email?token=s3cr3ts</a>',
      text: 'Verificar correo http://x.test/verify-email?token=s3cr3ts.\nFin',
      kind: 'verify-email',
    });
    await dispatcher({ secretLinks }).dispatchDue();
    const row = await rowOf(id);
    expect(row.text).toBe('Verificar correo http://x.test/verify-email?token=[retirado]\nFin');
    expect(row.html).toBe(
      '<a href="http://x.test/verify-email?token=[retirado]">http://x.test/verify-email?token=[retirado]</a>',
    );
  });

  it('without a mail service the link stays for the developer until its lifetime has passed, then is redacted', async () => {
    const fresh = await enqueue();
    const old = await enqueue();
    await age(old, 25); // verification links last 24 hours
    expect(await dispatcher({ resendApiKey: undefined, secretLinks }).dispatchDue()).toBe(2);
    expect(await rowOf(fresh)).toMatchObject({ status: 'logged' });
    expect(await holdsLink(fresh)).toBe(true);
    expect(await holdsLink(old)).toBe(false);
  });
});
