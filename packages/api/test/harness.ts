import { randomUUID } from 'node:crypto';
import { createBillingProvider } from '@folio/billing';
import { FakeStripe } from '@folio/billing-dev';
import type { DbHandle } from '@folio/db';
import { subscriptions } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import type { ApiConfig, Deps, RequestInfo, TokenSource } from '../src/context';
import { createContext } from '../src/context';
import { appRouter } from '../src/root';
import { createCallerFactory } from '../src/trpc';

// The in-process harness for the rules of packages/api: procedures called through the tRPC caller on
// the test file's own database, no HTTP. apps/api/test builds its HTTP harness on these pieces
// (exported as `@folio/api/testing`).

export const APP_URL = 'http://localhost:3000';

export const testConfig: ApiConfig = {
  authSecret: 'test-secret-0123456789abcdef0123456789abcdef',
  sessionTtlMs: 7 * 86_400_000,
  appUrl: APP_URL,
  secureCookies: false,
  supportEmail: 'soporte@folio.test',
};

/** What the procedures need, on `handle`'s database, with a fresh offline payment provider (its state is in memory). */
export function testDeps(handle: DbHandle, appUrl = APP_URL): Deps {
  return {
    db: handle.db,
    dbKind: handle.kind,
    databaseUrl: handle.databaseUrl,
    config: testConfig,
    billing: createBillingProvider({ appUrl, offline: FakeStripe }),
    kickEmail: () => {},
    log: { info() {}, warn() {}, error() {} },
  };
}

/** Anything that holds the dependencies and the database handle (this harness's TestApi, apps/api's TestApp). */
export interface WithDb {
  handle: DbHandle;
  deps: Deps;
}

export interface TestApi extends WithDb {
  close(): Promise<void>;
}

/** The procedures on this file's own database. */
export async function startTestApi(): Promise<TestApi> {
  const handle = await testDb();
  return { handle, deps: testDeps(handle), close: () => handle.close() };
}

export const randomIp = () => `10.${rand255()}.${rand255()}.${rand255()}`;
const rand255 = () => Math.floor(Math.random() * 255);

/** A tRPC caller as a TypeScript app would have it, authenticated by the token when given. */
export function caller(
  t: WithDb,
  token?: string,
  source: TokenSource = 'bearer',
  /** Request facts to set (an Idempotency-Key; the Headers to read the answer's headers from). */
  req: Partial<Pick<RequestInfo, 'idempotencyKey' | 'resHeaders'>> = {},
) {
  const ctx = createContext(
    { ...t.deps },
    {
      requestId: randomUUID(),
      token: token ?? null,
      tokenSource: token ? source : null,
      method: null,
      origin: null,
      ip: randomIp(),
      idempotencyKey: null,
      resHeaders: new Headers(),
      ...req,
    },
  );
  return createCallerFactory(appRouter)(ctx);
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
}

/** Registers and logs in a fresh user through the procedures. */
export async function signUp(t: WithDb): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.com`;
  const password = 'correct horse 1';
  await caller(t).auth.register({ email, password });
  const { accessToken, user } = await caller(t).auth.login({ email, password });
  return { id: user.id, email, password, token: accessToken };
}

/** Puts the user on a plan as the billing webhook would (status ACTIVE unless given). */
export async function setPlan(
  t: WithDb,
  userId: string,
  plan: 'BASIC' | 'PRO' | 'ENTERPRISE',
  status = 'ACTIVE',
) {
  const row = { userId, plan, status: status as 'ACTIVE' };
  await t.handle.db
    .insert(subscriptions)
    .values(row)
    .onConflictDoUpdate({ target: subscriptions.userId, set: row });
}

/** Valid RFCs for tests: 13 characters (FISICA) or 12 (MORAL), distinct per index. */
export const rfcFisica = (i: number) => `GOMA${String(800101 + (i % 28)).padStart(6, '0')}AB${i % 10}`;
export const rfcMoral = (i: number) =>
  `ABC${String(100101 + (i % 28)).padStart(6, '0')}X${String(i % 100).padStart(2, '0')}`;
