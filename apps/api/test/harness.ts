import { randomUUID } from 'node:crypto';
import { type AppRouter, ERROR_CODES } from '@folio/api';
import { APP_URL, randomIp, type TestUser, testDeps } from '@folio/api/testing';
import type { DbHandle, OpenDbOptions } from '@folio/db';
import { testDb } from '@folio/db/testing/vitest';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import { expect } from 'vitest';
import { createApp } from '../src/app';
import type { AppDeps } from '../src/http/types';

// The caller, plans and RFCs come from packages/api's in-process harness; this file adds HTTP.
export {
  APP_URL,
  caller,
  randomIp,
  rfcFisica,
  rfcMoral,
  setPlan,
  type TestUser,
  testConfig,
} from '@folio/api/testing';

import { createLogger } from '../src/logger';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  handle: DbHandle;
  deps: AppDeps;
  close(): Promise<void>;
}

/** The real app on this file's own database, served in-process (no socket). */
export async function startTestApp(
  overrides: Partial<AppDeps> = {},
  dbOptions: Pick<OpenDbOptions, 'logQuery'> = {},
): Promise<TestApp> {
  const handle = await testDb(dbOptions);
  const deps: AppDeps = {
    ...testDeps(handle, overrides.config?.appUrl),
    ping: handle.ping,
    log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    // Tests vary X-Forwarded-For so per-IP abuse limits apply only where a test wants them.
    trustProxy: true,
    devSurfaces: true,
    hsts: false,
    version: 'test',
    ...overrides,
  };
  return { app: createApp(deps), handle, deps, close: () => handle.close() };
}

type Init = { headers?: Record<string, string>; body?: unknown; ip?: string };

/** One request with a JSON body (objects are serialised; strings are sent as they are). */
export function request(t: TestApp, method: string, path: string, init: Init = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': init.ip ?? randomIp(), ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  return t.app.request(path, { method, headers, body });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const cookie = (token: string) => ({ cookie: `access_token=${token}`, origin: APP_URL });

/** Registers and logs in a fresh user. */
export async function signUp(t: TestApp, fields: Record<string, string> = {}): Promise<TestUser> {
  const email = fields.email ?? `user-${randomUUID()}@example.com`;
  const password = fields.password ?? 'correct horse 1';
  const reg = await request(t, 'POST', '/api/auth/register', { body: { ...fields, email, password } });
  expect(reg.status).toBe(201);
  const res = await request(t, 'POST', '/api/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { accessToken: string; user: { id: string } };
  return { id: body.user.id, email: email.trim().toLowerCase(), password, token: body.accessToken };
}

/** Registers and logs in a fresh user who has also clicked the verification link. */
export async function signUpVerified(t: TestApp, fields: Record<string, string> = {}): Promise<TestUser> {
  const user = await signUp(t, fields);
  const token = await verificationTokenFor(t, user.email);
  const res = await request(t, 'GET', `/api/auth/verify-email?token=${token}`, {
    headers: { accept: 'application/json' },
  });
  expect(res.status).toBe(200);
  return user;
}

/**
 * Asserts the error body contract: the spec's `{error, message}`, a stable snake_case `code`, and
 * `fields` (each `{path, message}`) exactly when the input failed validation. Nothing else.
 */
export function expectErrorBody(body: unknown): void {
  const b = body as Record<string, unknown>;
  // Invalid input names its fields: every validation_failed, and a service's own field checks (rfc_invalid).
  const keys =
    b.code === 'validation_failed' || b.fields
      ? ['code', 'error', 'fields', 'message']
      : ['code', 'error', 'message'];
  expect(Object.keys(b).sort()).toEqual(keys);
  expect(typeof b.error).toBe('string');
  expect(typeof b.message).toBe('string');
  // Every code any test observes is one of the documented enum's (docs/errors.md).
  expect(ERROR_CODES).toContain(b.code);
  if (b.fields) {
    for (const f of b.fields as unknown[]) {
      expect(Object.keys(f as object).sort()).toEqual(['message', 'path']);
    }
  }
}

/** Asserts the status, the error label and the body contract; returns the message. */
export async function expectError(res: Response, status: number, label: string): Promise<string> {
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, error: body.error }).toEqual({ status, error: label });
  expectErrorBody(body);
  return body.message as string;
}

/** A tRPC client over HTTP (/trpc, superjson, batching), served in-process. */
export function trpcClient(t: TestApp, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: 'http://localhost/trpc',
        transformer: superjson,
        headers: () => (token ? bearer(token) : {}),
        fetch: async (url, init) => t.app.request(String(url), init as RequestInit),
      }),
    ],
  });
}

/** The token of the newest mailed link to `path` (verify-email, reset-password) sent to `email`. */
export async function mailedToken(t: TestApp, email: string, path: string): Promise<string> {
  const res = await t.app.request(`/__dev/mail.json?to=${encodeURIComponent(email)}`);
  const { data } = (await res.json()) as { data: { text: string }[] };
  const pattern = new RegExp(`${path}\\?token=([a-z0-9]+)`);
  const token = data.map((m) => pattern.exec(m.text)?.[1]).find(Boolean);
  if (!token) throw new Error(`no ${path} mail for ${email}`);
  return token;
}

export const verificationTokenFor = (t: TestApp, email: string) => mailedToken(t, email, 'verify-email');

/** Creates a profile for the user through the API and returns it. */
export async function createProfile(t: TestApp, u: TestUser, fields: Record<string, unknown>) {
  const res = await request(t, 'POST', '/api/profiles', { headers: bearer(u.token), body: fields });
  if (res.status !== 201) throw new Error(`profile not created: ${res.status} ${await res.text()}`);
  return (await res.json()).data as { id: string; rfc: string };
}

/** Uploads one XML document to a profile. */
export function uploadXml(t: TestApp, u: TestUser, profileId: string, xml: string | Buffer) {
  return t.app.request(`/api/profiles/${profileId}/cfdi`, {
    method: 'POST',
    headers: { ...bearer(u.token), 'content-type': 'application/xml' },
    body: typeof xml === 'string' ? xml : new Uint8Array(xml),
  });
}

/** Uploads several files as multipart `files`. */
export function uploadFiles(
  t: TestApp,
  u: TestUser,
  profileId: string,
  files: { name: string; content: string | Buffer }[],
) {
  const form = new FormData();
  for (const f of files)
    form.append(
      'files',
      new File([typeof f.content === 'string' ? f.content : new Uint8Array(f.content)], f.name),
    );
  return t.app.request(`/api/profiles/${profileId}/cfdi`, {
    method: 'POST',
    headers: bearer(u.token),
    body: form,
  });
}
