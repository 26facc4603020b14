import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DbHandle } from '@folio/db';
import { emailOutbox } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEmail } from './outbox';
import { createMailSender, type MailSenderOptions, type Retry } from './sender';

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
  retries = [];
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
const sender = (extra: Partial<MailSenderOptions> = {}) =>
  createMailSender({
    db: handle.db,
    from: 'Folio <no-reply@folio.test>',
    log,
    resendApiKey: 're_test_key',
    resendBaseUrl: baseUrl,
    ...extra,
  });
/** What a sender asked to schedule: the job queue would run attempt `attempts` at `retryAt`. */
let retries: Retry[] = [];
const scheduleRetry = async (_tx: unknown, retry: Retry) => {
  retries.push(retry);
};
describe('without an API key', () => {
  it('marks the row logged and logs its link, never the body, and sends nothing', async () => {
    const id = await enqueue();
    expect(await sender({ resendApiKey: undefined }).deliver(id, 0)).toEqual({ outcome: 'logged' });
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
    const s = sender();
    expect(await s.deliver(id, 0)).toEqual({ outcome: 'sent' });
    // The same attempt again (a job run twice) sends nothing.
    expect(await s.deliver(id, 0)).toEqual({ outcome: 'skipped' });
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

  it('an API error (422) marks the row failed with one attempt and schedules the retry at its future retry time', async () => {
    reply = () => ({
      status: 422,
      body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
    });
    const id = await enqueue();
    const s = sender();
    const delivery = await s.deliver(id, 0, scheduleRetry);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, providerId: null, sentAt: null });
    expect(row.error).toContain('validation_error');
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(delivery).toEqual({ outcome: 'failed', attempts: 1, retryAt: row.nextAttemptAt });
    expect(retries).toEqual([{ attempts: 1, retryAt: row.nextAttemptAt }]);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', obj: expect.objectContaining({ emailId: id }) }),
    );
    // The first attempt is not made twice: only the scheduled second one sends again.
    expect(await s.deliver(id, 0, scheduleRetry)).toEqual({ outcome: 'skipped' });
    expect(requests).toHaveLength(1);
  });

  it('a failed row (500) is retried with the same idempotency key at its next attempt', async () => {
    reply = (n) => (n === 1 ? { status: 500, body: 'oops' } : { status: 200, body: { id: 're_ok' } });
    const id = await enqueue();
    const s = sender();
    await s.deliver(id, 0, scheduleRetry);
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 1 });

    expect(await s.deliver(id, retries[0]!.attempts, scheduleRetry)).toEqual({ outcome: 'sent' });
    expect(await rowOf(id)).toMatchObject({ status: 'sent', providerId: 're_ok', error: null });
    expect(requests.map((r) => r.headers['idempotency-key'])).toEqual([id, id]);
  });

  it('backs off exponentially and stops retrying after maxAttempts', async () => {
    reply = () => ({
      status: 500,
      body: { statusCode: 500, name: 'internal_server_error', message: 'down' },
    });
    const id = await enqueue();
    const s = sender({ maxAttempts: 3 });
    const waits: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await s.deliver(id, attempt, scheduleRetry)).toMatchObject({ outcome: 'failed' });
      waits.push((await rowOf(id)).nextAttemptAt.getTime() - Date.now());
    }
    expect((await rowOf(id)).attempts).toBe(3);
    // 1, 2, 4 minutes: each wait about twice the one before.
    expect(waits[1]!).toBeGreaterThan(waits[0]! * 1.5);
    expect(waits[2]!).toBeGreaterThan(waits[1]! * 1.5);
    expect(logs.at(-1)).toMatchObject({ level: 'error', msg: 'email send failed; giving up' });
    // Retries were scheduled after the first and second failures only.
    expect(retries.map((r) => r.attempts)).toEqual([1, 2]);

    expect(await s.deliver(id, 3, scheduleRetry)).toEqual({ outcome: 'skipped' });
    expect(requests).toHaveLength(3);
  });

  it('does not send a failed row that already used maxAttempts (default 5)', async () => {
    const id = await enqueue();
    await handle.db.update(emailOutbox).set({ status: 'failed', attempts: 5 }).where(eq(emailOutbox.id, id));
    expect(await sender().deliver(id, 5)).toEqual({ outcome: 'skipped' });
    expect(requests).toHaveLength(0);
  });

  it('the failure and its scheduled retry are one transaction: a retry that cannot be scheduled leaves the attempt to be made again', async () => {
    reply = () => ({
      status: 500,
      body: { statusCode: 500, name: 'internal_server_error', message: 'down' },
    });
    const id = await enqueue();
    await expect(
      sender().deliver(id, 0, async () => {
        throw new Error('queue unavailable');
      }),
    ).rejects.toThrow('queue unavailable');
    expect(await rowOf(id)).toMatchObject({ status: 'pending', attempts: 0, error: null });
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
    const s = sender({ secretLinks });
    expect(await s.deliver(secret, 0)).toEqual({ outcome: 'sent' });
    expect(await s.deliver(plain, 0)).toEqual({ outcome: 'sent' });
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
    await sender({ secretLinks }).deliver(id, 0);
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
    const s = sender({ resendApiKey: undefined, secretLinks });
    expect(await s.deliver(fresh, 0)).toEqual({ outcome: 'logged' });
    expect(await s.deliver(old, 0)).toEqual({ outcome: 'logged' });
    expect(await s.redactExpired()).toBe(1);
    expect(await rowOf(fresh)).toMatchObject({ status: 'logged' });
    expect(await holdsLink(fresh)).toBe(true);
    expect(await holdsLink(old)).toBe(false);
  });
});
