import { ALREADY_VERIFIED, appRouter, createCallerFactory, createContext, failure } from '@folio/api';
import type { Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import { page } from './page';
import { requestInfo } from './request-context';
import type { AppDeps, AppEnv } from './types';

const createCaller = createCallerFactory(appRouter);

/** A person clicking a link in a mail asks for text/html; programs asking for JSON keep getting it. */
function wantsHtml(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

const onward = html`<p><a id="onward" href="/api/docs">Continuar a Folio</a></p>`;

const VERIFIED_PAGE = {
  title: 'Correo verificado',
  body: html`<h1>Tu correo quedó verificado</h1>
    <p>Gracias. Tu cuenta está completa: ya puedes contratar un plan y crear llaves de API.</p>
    ${onward}`,
};
const ALREADY_VERIFIED_PAGE = {
  title: 'Correo ya verificado',
  body: html`<h1>Tu correo ya estaba verificado</h1>
    <p>Este enlace ya se usó y no hace falta nada más.</p>
    ${onward}`,
};
const INVALID_LINK_PAGE = {
  title: 'Enlace no válido',
  body: html`<h1>El enlace no es válido o caducó</h1>
    <p>Los enlaces de verificación duran 24 horas y solo sirve el más reciente. Inicia sesión y pide
      uno nuevo; te lo enviamos por correo.</p>
    ${onward}`,
};
const UNAVAILABLE_PAGE = {
  title: 'Error',
  body: html`<h1>No pudimos verificar tu correo ahora</h1>
    <p>Algo falló de nuestro lado. Vuelve a abrir el enlace en unos minutos.</p>`,
};

/** Sends JSON to an /api route from a form, and shows the answer in Spanish by its status. */
const formScript = (endpoint: string, fields: string, messages: Record<number | 'other', string>) =>
  html`<script>
    const form = document.querySelector('form');
    const out = document.getElementById('result');
    const messages = ${raw(JSON.stringify(messages))};
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      ${raw(fields)}
      const res = await fetch(${raw(JSON.stringify(endpoint))}, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }).catch(() => null);
      out.textContent = messages[res?.status] ?? messages.other;
      if (res?.ok) form.hidden = true;
    });
  </script>`;

/**
 * The pages behind the links in Folio's mails: the verification link (HTML for people, JSON for
 * programs), the password-reset form and the "forgot password" form. The forms only call the public
 * JSON routes, so every rule (limits, single use, session revocation) stays in one place.
 */
export function mountAccountPages(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/api/auth/verify-email', async (c, next) => {
    if (!wantsHtml(c)) return next(); // the REST layer answers JSON
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    const ctx = createContext({ ...deps, log: c.get('log') }, requestInfo(c, deps, new Headers()));
    try {
      const { message } = await createCaller(ctx).auth.verifyEmailLink({ token: c.req.query('token') ?? '' });
      const shown = message === ALREADY_VERIFIED ? ALREADY_VERIFIED_PAGE : VERIFIED_PAGE;
      return c.html(page(shown.title, shown.body));
    } catch (err) {
      const { status } = failure(err);
      if (status >= 500) c.get('log').error({ err }, 'verification page failed');
      const shown = status === 400 ? INVALID_LINK_PAGE : UNAVAILABLE_PAGE;
      return c.html(page(shown.title, shown.body), status as 400);
    }
  });

  app.get('/auth/reset-password', (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.html(
      page(
        'Nueva contraseña',
        html`<h1>Elige una contraseña nueva</h1>
          <form>
            <label for="password">Contraseña nueva (8 a 128 caracteres)</label>
            <input id="password" name="password" type="password" autocomplete="new-password"
              minlength="8" maxlength="128" required />
            <button type="submit">Cambiar contraseña</button>
          </form>
          <p id="result" role="status"></p>
          <p><a href="/auth/forgot-password">Pedir un enlace nuevo</a></p>`,
        formScript(
          '/api/auth/reset-password',
          `const body = { token: new URLSearchParams(location.search).get('token') ?? '', password: data.get('password') };`,
          {
            200: 'Listo: tu contraseña cambió y cerramos todas tus sesiones. Inicia sesión con la nueva.',
            400: 'El enlace no es válido, ya se usó o caducó (dura una hora). Pide uno nuevo.',
            other: 'No pudimos cambiar la contraseña ahora. Inténtalo de nuevo en unos minutos.',
          },
        ),
      ),
    );
  });

  app.get('/auth/forgot-password', (c) =>
    c.html(
      page(
        'Olvidé mi contraseña',
        html`<h1>¿Olvidaste tu contraseña?</h1>
          <p>Escribe el correo de tu cuenta y te enviaremos un enlace para elegir una nueva.</p>
          <form>
            <label for="email">Correo</label>
            <input id="email" name="email" type="email" autocomplete="email" required />
            <button type="submit">Enviar enlace</button>
          </form>
          <p id="result" role="status"></p>`,
        formScript('/api/auth/forgot-password', `const body = { email: data.get('email') };`, {
          200: 'Si existe una cuenta con ese correo, te enviamos un enlace. Revisa tu bandeja.',
          400: 'Revisa el correo que escribiste.',
          429: 'Demasiados intentos. Espera un poco antes de pedir otro enlace.',
          other: 'No pudimos enviar el enlace ahora. Inténtalo de nuevo en unos minutos.',
        }),
      ),
    ),
  );
}
