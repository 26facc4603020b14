import { listOutbox } from '@folio/db/queries/email-outbox';
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppDeps, AppEnv } from '../http/types';
import { estadoCorreo, fechaHora } from './format';

/** The email outbox for people and tests while no real mail service is configured. */
export function mountDevMail(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/__dev/mail.json', async (c) => {
    const rows = await listOutbox(deps.db, { to: c.req.query('to'), limit: 100 });
    return c.json({
      data: rows.map((r) => ({
        id: r.id,
        to: r.to,
        subject: r.subject,
        text: r.text,
        html: r.html,
        created_at: r.createdAt.toISOString(),
      })),
    });
  });
  app.get('/__dev/mail', async (c) => {
    const rows = await listOutbox(deps.db, { limit: 50 });
    return c.html(html`<!doctype html>
      <html lang="es">
        <head><meta charset="utf-8" /><title>Folio · correo de desarrollo</title>
          <style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
          article{border:1px solid #ddd;border-radius:8px;margin:1rem 0;padding:1rem}
          iframe{width:100%;height:24rem;border:1px solid #eee}small{color:#666}</style></head>
        <body>
          <h1>Correo enviado (outbox)</h1>
          <p>Los más recientes primero. Nada de esto sale de esta máquina.</p>
          ${rows.length ? '' : html`<p>Todavía no hay mensajes.</p>`}
          ${rows.map(
            (r) => html`<article>
              <h2>${r.subject}</h2>
              <small>Para ${r.to} · ${fechaHora(r.createdAt)} · ${estadoCorreo(r.status)}</small>
              <iframe sandbox srcdoc="${r.html}" title="${r.subject}"></iframe>
              <details><summary>Texto</summary><pre>${r.text}</pre></details>
            </article>`,
          )}
        </body>
      </html>`);
  });
}
