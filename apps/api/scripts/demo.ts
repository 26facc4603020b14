// pnpm demo — against a running server (`pnpm start` in another terminal; FOLIO_URL, default
// http://localhost:3000): a verified demo user on PRO (through the offline dev billing provider),
// the demo taxpayer's profile with samples/cfdi imported, and what to try next (token, API key,
// curl lines). Idempotent: a second run logs in and reuses the user and profile; the demo's API key
// is replaced by a fresh one (a key is shown only when created).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_TAXPAYER, SAMPLES_DIR } from './demo-taxpayer';

const BASE = (process.env.FOLIO_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const EMAIL = process.env.DEMO_EMAIL ?? 'demo@folio.local';
const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-folio-2026';
const KEY_NAME = 'pnpm demo';

type Answer = { status: number; body: any };

async function call(
  method: string,
  path: string,
  init: { token?: string; body?: unknown; form?: FormData } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}`, {
      method,
      headers,
      body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      redirect: 'manual',
    });
  } catch (err) {
    throw new Error(
      `no server answers at ${BASE} (${(err as Error).cause ?? (err as Error).message}). ` +
        'Start it with `pnpm start` in another terminal (or set FOLIO_URL).',
    );
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (the dev checkout answers a redirect)
  }
  return { status: res.status, body } as Answer;
}

/** The answer when its status is one of `ok`; otherwise stops with what the server said. */
async function expectStatus(what: string, answer: Promise<Answer>, ...ok: number[]): Promise<Answer> {
  const a = await answer;
  if (!ok.includes(a.status)) {
    const said = typeof a.body === 'string' ? a.body.slice(0, 300) : JSON.stringify(a.body);
    throw new Error(`${what}: HTTP ${a.status} ${said}`);
  }
  return a;
}

const say = (line: string) => process.stderr.write(`demo: ${line}\n`);

/** Logs in; the first time, registers the demo user first. */
async function login(): Promise<string> {
  const creds = { email: EMAIL, password: PASSWORD };
  let res = await expectStatus('login', call('POST', '/api/auth/login', { body: creds }), 200, 401);
  if (res.status === 401) {
    await expectStatus(
      'register',
      call('POST', '/api/auth/register', { body: { ...creds, nombre: 'Demo' } }),
      201,
    );
    say(`registered ${EMAIL}`);
    res = await expectStatus('login', call('POST', '/api/auth/login', { body: creds }), 200);
  } else say(`${EMAIL} exists: logged in`);
  return res.body.accessToken;
}

/** Clicks the link of the verification mail (read from the development outbox, /__dev/mail.json). */
async function verify(token: string) {
  const me = await expectStatus('me', call('GET', '/api/auth/me', { token }), 200);
  if ((me.body.user ?? me.body).email_verified) return;
  const mail = await expectStatus(
    'the development outbox (is the server running with NODE_ENV=production or RESEND_API_KEY?)',
    call('GET', `/__dev/mail.json?to=${encodeURIComponent(EMAIL)}`),
    200,
  );
  const link = (mail.body.data as { text: string }[])
    .map((m) => /\/api\/auth\/verify-email\?token=([^\s&"'<>)]+)/.exec(m.text)?.[1])
    .find(Boolean);
  if (!link) throw new Error(`no verification mail for ${EMAIL} in the outbox`);
  await expectStatus('verify email', call('GET', `/api/auth/verify-email?token=${link}`), 200);
  say('email verified');
}

/** PRO through the offline billing provider: a checkout, then its dev page's Pay button. */
async function upgrade(token: string) {
  const sub = await expectStatus('subscription', call('GET', '/api/subscription', { token }), 200);
  if (sub.body.plan === 'PRO') return say(`already on PRO (${sub.body.status})`);
  const checkout = await expectStatus(
    'create-checkout',
    call('POST', '/api/subscription/create-checkout', { token, body: { plan: 'PRO' } }),
    201,
  );
  await expectStatus(
    'complete the dev checkout (STRIPE_SECRET_KEY must be unset)',
    call('POST', `/__dev/billing/checkout/${checkout.body.sessionId}/complete`),
    303,
  );
  const now = await expectStatus('subscription', call('GET', '/api/subscription', { token }), 200);
  if (now.body.plan !== 'PRO') throw new Error(`checkout completed but the plan is ${now.body.plan}`);
  say(`upgraded to PRO (${now.body.status})`);
}

async function demoProfile(token: string): Promise<string> {
  const list = await expectStatus('profiles', call('GET', '/api/profiles', { token }), 200);
  const found = (list.body.data as { id: string; rfc: string }[]).find((p) => p.rfc === DEMO_TAXPAYER.rfc);
  if (found) return found.id;
  const made = await expectStatus(
    'create profile',
    call('POST', '/api/profiles', { token, body: DEMO_TAXPAYER }),
    201,
  );
  say(`profile ${DEMO_TAXPAYER.rfc} (${DEMO_TAXPAYER.nombre}) created`);
  return made.body.data.id;
}

async function importSamples(token: string, profileId: string) {
  const form = new FormData();
  for (const name of readdirSync(SAMPLES_DIR)
    .filter((f) => f.endsWith('.xml'))
    .sort())
    form.append('files', new File([readFileSync(join(SAMPLES_DIR, name))], name));
  const { body } = await expectStatus(
    'import samples/cfdi',
    call('POST', `/api/profiles/${profileId}/cfdi`, { token, form }),
    201, // something stored
    200, // nothing new: a second run
  );
  const r = body.data as { imported: number; duplicates: number; rejected: number; files: any[] };
  say(`samples/cfdi: ${r.imported} imported, ${r.duplicates} already there, ${r.rejected} refused`);
  for (const f of r.files.filter((f) => f.status === 'rejected'))
    say(`  refused on purpose (samples/cfdi/README.md): ${f.name}: ${f.error}`);
}

/** The demo's key, replaced: only a new key's secret can be shown. */
async function freshApiKey(token: string): Promise<string> {
  const list = await expectStatus('api keys', call('GET', '/api/api-keys', { token }), 200);
  for (const k of (list.body.data as { id: string; name: string }[]).filter((k) => k.name === KEY_NAME))
    await expectStatus(
      'revoke the previous demo key',
      call('DELETE', `/api/api-keys/${k.id}`, { token }),
      200,
    );
  const made = await expectStatus(
    'create api key',
    call('POST', '/api/api-keys', { token, body: { name: KEY_NAME, scope: 'write' } }),
    201,
  );
  return made.body.data.key;
}

try {
  const token = await login();
  await verify(token);
  await upgrade(token);
  const profileId = await demoProfile(token);
  await importSamples(token, profileId);
  const key = await freshApiKey(token);
  console.log(`
Folio demo ready at ${BASE}
  user      ${EMAIL} / ${PASSWORD} (PRO)
  profile   ${DEMO_TAXPAYER.rfc} ${DEMO_TAXPAYER.nombre}: ${profileId}
  token     ${token}
  API key   ${key}

Try:
  curl -s "${BASE}/api/invoices?profileId=${profileId}&mes=9&a%C3%B1o=2026" -H "Authorization: Bearer ${key}"
  curl -s "${BASE}/api/reports/monthly?profileId=${profileId}&mes=8&a%C3%B1o=2026" -H "Authorization: Bearer ${key}"
  curl -s "${BASE}/api/sat/ai-search?query=renta+de+un+depa&limit=3" -H "Authorization: Bearer ${token}"
`);
} catch (err) {
  console.error(`demo: ${(err as Error).message}`);
  process.exit(1);
}
