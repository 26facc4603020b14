import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DbHandle, rowsOf } from '@folio/db';
import { emailOutbox } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import { createMailSender, enqueueEmail } from '@folio/email';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AppJobRunner, createAppJobs } from '../src/services/jobs/app-jobs';

// The mail outbox on the job queue: each row is sent by a job, once, in the order the rows were
// written; a failure is retried by a job at the row's next attempt time; rows written while no
// server ran are sent when one starts; two servers never send one row twice.

interface FakeRequest {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}
let requests: FakeRequest[] = [];
let reply: (n: number) => { status: number; body: unknown; delayMs?: number };
let server: Server;
let baseUrl: string;
let handle: DbHandle;
let logs: { msg?: string }[] = [];
const log = {
  info: (_: object, msg?: string) => logs.push({ msg }),
  warn: (_: object, msg?: string) => logs.push({ msg }),
  error: (_: object, msg?: string) => logs.push({ msg }),
};
const running: AppJobRunner[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      requests.push({ headers: req.headers, body: JSON.parse(raw || '{}') });
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
  for (const jobs of running) await jobs.stop();
  await handle?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  for (const jobs of running.splice(0)) await jobs.stop();
  await handle.db.delete(emailOutbox);
  requests = [];
  logs = [];
  reply = (n) => ({ status: 200, body: { id: `re_${n}` } });
});

/** A server's job runner (its queue, workers and mail kicker), started. */
async function startJobs(): Promise<AppJobRunner> {
  const jobs = createAppJobs({
    handle,
    sender: createMailSender({
      db: handle.db,
      from: 'Folio <no-reply@folio.test>',
      log,
      resendApiKey: 're_test_key',
      resendBaseUrl: baseUrl,
    }),
    log,
    pollingIntervalSeconds: 0.5,
  });
  await jobs.start();
  running.push(jobs);
  return jobs;
}
const enqueue = (to = 'ana@example.com') =>
  enqueueEmail(handle.db, {
    to,
    subject: 'Confirma tu correo en Folio',
    html: '<p>Hola</p>',
    text: 'Hola',
    kind: 'verify-email',
  });
const rowOf = async (id: string) =>
  (await handle.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;
const keys = () => requests.map((r) => r.headers['idempotency-key']);

describe('kick', () => {
  it('a mail kicked after its commit is sent soon, once; a burst of kicks sends it once', async () => {
    const jobs = await startJobs();
    const id = await enqueue();
    jobs.mail.kick();
    jobs.mail.kick();
    jobs.mail.kick();
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('sent'), { timeout: 10_000 });
    await jobs.stop();
    expect(keys()).toEqual([id]);
  });

  it('a kick during an adoption in flight runs one more, which queues the newer row', async () => {
    reply = (n) => ({ status: 200, body: { id: `re_${n}` }, delayMs: n === 1 ? 150 : 0 });
    const jobs = await startJobs();
    const first = await enqueue();
    jobs.mail.kick();
    await vi.waitFor(() => expect(requests).toHaveLength(1), { timeout: 10_000 });
    const second = await enqueue('bea@example.com');
    jobs.mail.kick();
    await vi.waitFor(async () => expect((await rowOf(second)).status).toBe('sent'), { timeout: 10_000 });
    expect((await rowOf(first)).status).toBe('sent');
  });

  it('kick never throws: a failing adoption is logged', async () => {
    const jobs = await startJobs();
    // The database itself fails the adoption's read: the outbox table is briefly missing.
    await handle.db.execute(sql`alter table email_outbox rename to email_outbox_away`);
    try {
      expect(() => jobs.mail.kick()).not.toThrow();
      await vi.waitFor(() => expect(logs).toContainEqual({ msg: 'email outbox: could not queue mail' }));
      await jobs.mail.stop();
    } finally {
      await handle.db.execute(sql`alter table email_outbox_away rename to email_outbox`);
    }
  });
});

describe('delivery order and restarts', () => {
  it('rows written while no server ran are all sent at the next start, oldest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const id = await enqueue(`user${i}@example.com`);
      await handle.db
        .update(emailOutbox)
        .set({ createdAt: sql`now() - make_interval(secs => ${100 - i})` })
        .where(eq(emailOutbox.id, id));
      ids.push(id);
    }
    await startJobs();
    await vi.waitFor(() => expect(requests).toHaveLength(23), { timeout: 20_000 });
    expect(keys()).toEqual(ids);
  });

  it('stop waits for the send in flight, and a stopped server sends nothing more', async () => {
    reply = (n) => ({ status: 200, body: { id: `re_${n}` }, delayMs: 200 });
    const jobs = await startJobs();
    const id = await enqueue();
    jobs.mail.kick();
    await vi.waitFor(() => expect(requests).toHaveLength(1), { timeout: 10_000 });
    await jobs.stop();
    expect((await rowOf(id)).status).toBe('sent');
    const later = await enqueue('bea@example.com');
    jobs.mail.kick();
    await new Promise((r) => setTimeout(r, 300));
    expect((await rowOf(later)).status).toBe('pending');
  });
});

describe('retries', () => {
  it("a failed send (500) is retried by a job that starts at the row's next attempt time, with the same idempotency key", async () => {
    reply = (n) => (n === 1 ? { status: 500, body: 'oops' } : { status: 200, body: { id: 're_ok' } });
    const jobs = await startJobs();
    const id = await enqueue();
    jobs.mail.kick();
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('failed'), { timeout: 10_000 });
    const row = await rowOf(id);
    expect(row.attempts).toBe(1);
    // The retry is a job waiting for exactly the row's next attempt time (a minute away).
    const [retry] = rowsOf<{ id: string; start_after: Date | string }>(
      await handle.db.execute(
        sql`select id, start_after from pgboss.job where name = 'email.send' and data->>'emailId' = ${id} and (data->>'attempt')::int = 1`,
      ),
    );
    expect(new Date(retry!.start_after).getTime()).toBe(row.nextAttemptAt.getTime());
    expect(requests).toHaveLength(1);
    // Its time comes (moved forward here, for the row and its job), and the retry sends it.
    await handle.db.execute(sql`update email_outbox set next_attempt_at = now() where id = ${id}`);
    await handle.db.execute(sql`update pgboss.job set start_after = now() where id = ${retry!.id}::uuid`);
    jobs.queue.wake('email.send');
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('sent'), { timeout: 10_000 });
    expect(keys()).toEqual([id, id]);
  });
});

describe('two servers', () => {
  it('two servers started on one database send each of 15 rows exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push(await enqueue(`user${i}@example.com`));
    await Promise.all([startJobs(), startJobs()]);
    await vi.waitFor(() => expect(requests).toHaveLength(15), { timeout: 20_000 });
    await Promise.all(running.map((j) => j.stop()));
    expect(keys().sort()).toEqual([...ids].sort());
  });
});

describe('scheduled mail work', () => {
  it('a row committed on a running server whose kick never came is sent by the email.adopt job', async () => {
    const jobs = await startJobs();
    const id = await enqueue(); // no kick: the writer died after its commit, or was a script
    // The job the cron sends every minute, sent here at once.
    await jobs.queue.enqueue('email.adopt', {});
    jobs.queue.wake('email.adopt');
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('sent'), { timeout: 10_000 });
    expect(keys()).toEqual([id]);
  });

  it('a server start schedules the adoption of rows without a job every minute and the redaction of expired secret links every 5 minutes (one schedule each across servers)', async () => {
    await Promise.all([startJobs(), startJobs()]);
    const schedules = rowsOf<{ name: string; cron: string; timezone: string }>(
      await handle.db.execute(sql`select name, cron, timezone from pgboss.schedule order by name`),
    );
    expect(schedules).toEqual([
      { name: 'email.adopt', cron: '* * * * *', timezone: 'UTC' },
      { name: 'email.redact', cron: '*/5 * * * *', timezone: 'UTC' },
    ]);
  });
});
