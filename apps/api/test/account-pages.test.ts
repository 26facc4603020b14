import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  expectError,
  mailedToken,
  request,
  signUp,
  startTestApp,
  type TestApp,
  verificationTokenFor,
} from './harness';

/** The pages behind the links in Folio's mails, as a browser asks for them (Accept: text/html). */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const open = (path: string) => request(t, 'GET', path, { headers: { accept: BROWSER_ACCEPT } });

describe('the verification link', () => {
  it('shows a person a Spanish page "Tu correo quedó verificado" with a way on, and verifies', async () => {
    const u = await signUp(t);
    const res = await open(`/api/auth/verify-email?token=${await verificationTokenFor(t, u.email)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await res.text();
    expect(page).toMatch(/<html lang="es">/);
    expect(page).toContain('<h1>Tu correo quedó verificado</h1>');
    expect(page).toMatch(/<a id="onward" href="\/api\/docs">/);
    const me = await request(t, 'GET', '/api/auth/me', { headers: bearer(u.token) });
    expect((await me.json()).user.email_verified).toBe(true);
  });

  it('says "ya estaba verificado" on a second click, not "invalid"', async () => {
    const u = await signUp(t);
    const link = `/api/auth/verify-email?token=${await verificationTokenFor(t, u.email)}`;
    await open(link);
    const again = await open(link);
    expect(again.status).toBe(200);
    const page = await again.text();
    expect(page).toContain('<h1>Tu correo ya estaba verificado</h1>');
    expect(page).not.toMatch(/no es válido/);
  });

  it('answers an unknown or missing token with a Spanish 400 page', async () => {
    for (const path of ['/api/auth/verify-email?token=nope', '/api/auth/verify-email']) {
      const res = await open(path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<h1>El enlace no es válido o caducó</h1>');
    }
  });

  it('keeps answering JSON to Accept: application/json (and to clients that do not ask for HTML)', async () => {
    const u = await signUp(t);
    const link = `/api/auth/verify-email?token=${await verificationTokenFor(t, u.email)}`;
    const json = await request(t, 'GET', link, { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toMatchObject({ message: 'Email verified', user: { email_verified: true } });
    const plain = await request(t, 'GET', link);
    expect(await plain.json()).toMatchObject({ message: 'Email already verified' });
    const bad = await request(t, 'GET', '/api/auth/verify-email?token=nope', {
      headers: { accept: 'application/json' },
    });
    await expectError(bad, 400, 'Bad Request');
  });
});

describe('the password pages', () => {
  it('the reset link in the mail opens a Spanish form that posts to the API', async () => {
    const u = await signUp(t);
    await request(t, 'POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const res = await open(`/auth/reset-password?token=${await mailedToken(t, u.email, 'reset-password')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await res.text();
    expect(page).toContain('<h1>Elige una contraseña nueva</h1>');
    expect(page).toContain('/api/auth/reset-password');
  });

  it('the "forgot password" page (linked from the password-changed mail) is a Spanish form', async () => {
    const res = await open('/auth/forgot-password');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<h1>¿Olvidaste tu contraseña?</h1>');
    expect(page).toContain('/api/auth/forgot-password');
  });
});
