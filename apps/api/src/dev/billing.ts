import type { FakeStripe } from '@folio/billing-dev';
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { AppDeps, AppEnv } from '../http/types';
import { STRIPE_WEBHOOK_PATH } from '../http/webhook';
import { estadoSesionPago, estadoSuscripcion, fecha, fechaHora } from './format';

const money = (n: number) => `$${n.toLocaleString('es-MX', { minimumFractionDigits: 2 })} MXN`;

const page = (title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) => html`<!doctype html>
  <html lang="es">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>Folio · ${title} (desarrollo)</title>
      <style>
        body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
        .banner{background:#fff4ce;border:1px solid #e6c200;border-radius:8px;padding:.5rem .75rem;font-size:.85rem}
        .card{border:1px solid #ddd;border-radius:12px;padding:1.5rem;margin-top:1rem}
        dt{color:#666;font-size:.85rem}dd{margin:0 0 .75rem;font-weight:600}
        form{display:inline-block;margin:.25rem .25rem .25rem 0}
        button{font-size:1rem;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #888;cursor:pointer;background:#fff}
        button.primary{background:#635bff;border-color:#635bff;color:#fff}
      </style>
    </head>
    <body>
      <p class="banner">Proveedor de pagos de desarrollo: nada aquí cobra dinero real.</p>
      <div class="card">${body}</div>
    </body>
  </html>`;

const refuse = (c: Context<AppEnv>, message: string, status: 404 | 409) =>
  c.html(page('Error', html`<h1>No se puede</h1><p id="error">${message}</p>`), status);

const PORTAL_ACTIONS = [
  ['cancel-at-period-end', 'Cancelar al final del periodo'],
  ['keep', 'Mantener la suscripción'],
  ['cancel-now', 'Cancelar ahora'],
  ['end-trial', 'Terminar la prueba (cobrar)'],
  ['renew', 'Renovar (fin del periodo)'],
  ['fail-renewal', 'Fallar la próxima renovación'],
  ['exhaust-retries', 'Agotar reintentos (impago)'],
  ['pay-again', 'Pagar de nuevo'],
] as const;

async function runPortalAction(
  dev: FakeStripe,
  subId: string,
  action: string,
  form: Record<string, unknown>,
) {
  switch (action) {
    case 'cancel-at-period-end':
      return dev.cancelAtPeriodEnd(subId);
    case 'keep':
      return dev.keepSubscription(subId);
    case 'cancel-now':
      return dev.cancelNow(subId);
    case 'end-trial':
      return dev.endTrial(subId);
    case 'renew':
      return dev.renew(subId);
    case 'fail-renewal':
      return dev.failRenewal(subId);
    case 'exhaust-retries':
      return dev.exhaustRetries(subId);
    case 'pay-again':
      return dev.payAgain(subId);
    case 'switch': {
      const plan = form.plan === 'PRO' ? 'PRO' : 'BASIC';
      const billing = form.billing === 'annual' ? 'annual' : 'monthly';
      return dev.switchPlan(subId, plan, billing);
    }
    default:
      throw new Error(`unknown action ${action}`);
  }
}

/**
 * The offline provider's hosted pages (docs/contract.md#development-surfaces): checkout with Pay/Decline, and the customer
 * portal. Every action changes the fake's state and sends signed events to our own webhook.
 */
export function mountDevBilling(app: Hono<AppEnv>, deps: AppDeps): void {
  // The offline provider the server runs without Stripe keys is always @folio/billing-dev's fake.
  const dev = deps.billing.dev as FakeStripe | undefined;
  if (!dev) return;
  // Events go to our webhook route in-process, exactly as Stripe would post them.
  dev.connect((req) => Promise.resolve(app.fetch(req)), `${deps.billing.appUrl}${STRIPE_WEBHOOK_PATH}`);

  app.get('/__dev/billing/checkout/:id', (c) => {
    const view = dev.describeCheckout(c.req.param('id'));
    if (!view) return refuse(c, 'Sesión de pago desconocida', 404);
    const { session } = view;
    const open = session.status === 'open';
    return c.html(
      page(
        'Pago',
        html`<h1>Suscripción a Folio ${view.plan}</h1>
          <dl>
            <dt>Plan</dt>
            <dd id="plan">${view.plan}</dd>
            <dt>Periodo</dt>
            <dd id="billing">${view.billing === 'annual' ? 'Anual' : 'Mensual'}</dd>
            <dt>Total por periodo</dt>
            <dd id="amount">${money(view.amount)}</dd>
            <dt>Prueba gratis</dt>
            <dd id="trial">${view.trialDays ? `${view.trialDays} días` : 'No'}</dd>
            <dt>Código promocional</dt>
            <dd id="promotion">${view.promotionCode ?? '—'}</dd>
            <dt>Vence</dt>
            <dd id="expires">${fechaHora(new Date(session.expires_at * 1000))}</dd>
          </dl>
          ${
            open
              ? html`<form method="post" action="/__dev/billing/checkout/${session.id}/complete">
                    <button class="primary" id="pay" type="submit">Pagar</button>
                  </form>
                  <form method="post" action="/__dev/billing/checkout/${session.id}/decline">
                    <button id="decline" type="submit">Rechazar</button>
                  </form>`
              : html`<p id="state">Esta sesión está ${estadoSesionPago(session.status)}.</p>`
          }`,
      ),
    );
  });

  app.post('/__dev/billing/checkout/:id/:action{complete|decline}', async (c) => {
    const id = c.req.param('id');
    const view = dev.describeCheckout(id);
    if (!view) return refuse(c, 'Sesión de pago desconocida', 404);
    if (view.session.status !== 'open')
      return refuse(c, `La sesión está ${estadoSesionPago(view.session.status)}`, 409);
    if (c.req.param('action') === 'complete') {
      await dev.completeCheckout(id);
      return c.redirect(String(view.session.success_url).replace('{CHECKOUT_SESSION_ID}', id), 303);
    }
    await dev.declineCheckout(id);
    return c.redirect(String(view.session.cancel_url ?? `${deps.billing.appUrl}/billing/cancel`), 303);
  });

  app.get('/__dev/billing/portal/:id', (c) => {
    const portal = dev.portalSessions.get(c.req.param('id'));
    if (!portal) return refuse(c, 'Sesión del portal desconocida', 404);
    const subs = dev.subscriptionsOf(portal.customer);
    const sub = subs.find((s) => s.status !== 'canceled') ?? subs[0];
    const item = sub?.items.data[0];
    return c.html(
      page(
        'Portal',
        html`<h1>Portal de facturación</h1>
          ${
            sub
              ? html`<dl>
                  <dt>Suscripción</dt>
                  <dd id="subscription">${sub.id}</dd>
                  <dt>Plan</dt>
                  <dd id="price">${item?.price.lookup_key ?? '—'}</dd>
                  <dt>Estado</dt>
                  <dd id="status">${estadoSuscripcion(sub.status)}</dd>
                  <dt>Periodo</dt>
                  <dd>${fecha(item?.current_period_start)} &rarr; ${fecha(item?.current_period_end)}</dd>
                  ${
                    sub.status === 'canceled'
                      ? html`<dt>Cancelada el</dt>
                          <dd id="canceled-at">${fecha(sub.ended_at ?? sub.canceled_at)}</dd>`
                      : html`<dt>Se cancela</dt>
                          <dd id="cancel-at">${fecha(sub.cancel_at)}</dd>`
                  }
                </dl>
                ${
                  sub.status === 'canceled'
                    ? html`<p id="canceled">La suscripción está cancelada: ya no se cobra y la cuenta vuelve al plan FREE.</p>`
                    : html`${PORTAL_ACTIONS.map(
                        ([action, label]) =>
                          html`<form method="post" action="/__dev/billing/portal/${portal.id}/${action}">
                            <button id="${action}" type="submit">${label}</button>
                          </form>`,
                      )}
                      <form method="post" action="/__dev/billing/portal/${portal.id}/switch">
                        <select name="plan"><option>BASIC</option><option>PRO</option></select>
                        <select name="billing"><option value="monthly">Mensual</option><option value="annual">Anual</option></select>
                        <button id="switch" type="submit">Cambiar de plan</button>
                      </form>`
                }`
              : html`<p>Sin suscripciones.</p>`
          }
          <p><a href="${portal.return_url ?? '/'}">Volver a Folio</a></p>`,
      ),
    );
  });

  app.post('/__dev/billing/portal/:id/:action', async (c) => {
    const portal = dev.portalSessions.get(c.req.param('id'));
    if (!portal) return refuse(c, 'Sesión del portal desconocida', 404);
    const subs = dev.subscriptionsOf(portal.customer);
    const sub = subs.find((s) => s.status !== 'canceled');
    if (!sub) return refuse(c, 'No hay una suscripción activa', 409);
    try {
      await runPortalAction(dev, sub.id, c.req.param('action'), await c.req.parseBody());
    } catch (err) {
      return refuse(c, err instanceof Error ? err.message : 'acción inválida', 409);
    }
    return c.redirect(`/__dev/billing/portal/${portal.id}`, 303);
  });
}
