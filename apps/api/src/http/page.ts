import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

type Body = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The frame of the few pages a person sees (billing returns, account links): Spanish, one card. */
export const page = (title: string, body: Body, script?: Body) => html`<!doctype html>
  <html lang="es">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>Folio · ${title}</title>
      <style>
        body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
        .card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}
        dt{color:#666;font-size:.85rem}dd{margin:0 0 .75rem;font-weight:600}
        label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
        button{margin-top:1rem;padding:.6rem 1.2rem}
      </style>
    </head>
    <body>
      <main class="card">${body}</main>
      ${script ?? ''}
    </body>
  </html>`;
