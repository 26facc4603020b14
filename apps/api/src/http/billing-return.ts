import { type CheckoutReturn, reconcileCheckoutReturn } from '@folio/billing';
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { page } from './page';
import type { AppDeps, AppEnv } from './types';

function successBody(result: CheckoutReturn | undefined) {
  const sub = result?.subscription;
  if (result?.state === 'complete' && sub) {
    return html`<h1>¡Gracias! Tu suscripción está lista</h1>
      <dl>
        <dt>Plan</dt>
        <dd id="plan">${sub.plan}</dd>
        <dt>Estado</dt>
        <dd id="status">${sub.status}</dd>
        <dt>Periodo actual hasta</dt>
        <dd id="period-end">${sub.currentPeriodEnd ?? '—'}</dd>
      </dl>
      <p>Ya puedes usar los límites de tu nuevo plan. Puedes cerrar esta ventana.</p>`;
  }
  if (result?.state === 'open') {
    return html`<h1>Pago pendiente</h1>
      <p id="status">OPEN</p>
      <p>El pago aún no se completa. Si ya pagaste, tu plan se actualizará en unos momentos.</p>`;
  }
  if (result?.state === 'expired') {
    return html`<h1>La sesión de pago expiró</h1>
      <p id="status">EXPIRED</p>
      <p>Inicia el pago de nuevo desde la aplicación.</p>`;
  }
  if (result?.state === 'unknown') {
    return html`<h1>No encontramos esa sesión de pago</h1>
      <p id="status">UNKNOWN</p>
      <p>El enlace no corresponde a ningún pago. Revisa tu plan en la aplicación o inicia el pago de nuevo.</p>`;
  }
  return html`<h1>Estamos confirmando tu pago</h1>
    <p id="status">PENDING</p>
    <p>Tu plan se actualizará en cuanto el proveedor de pagos lo confirme.</p>`;
}

/** The session as the provider sees it; undefined when it could not be asked. */
async function checkoutReturn(
  c: Context<AppEnv>,
  deps: AppDeps,
  sessionId: string,
): Promise<CheckoutReturn | undefined> {
  // Not a checkout session id at all: the provider cannot know it either.
  if (!/^cs_[\w-]{1,200}$/.test(sessionId)) return { state: 'unknown' };
  try {
    return await reconcileCheckoutReturn(
      { db: deps.db, billing: deps.billing, log: c.get('log') },
      sessionId,
    );
  } catch (err) {
    // The webhook will still bring the change; the page only says it is on its way.
    c.get('log').error({ err, sessionId }, 'billing: could not reconcile the checkout return');
    return undefined;
  }
}

/**
 * Where the hosted checkout sends the user back (APP_URL pointing at the API). The success page
 * re-reads the session and subscription from the provider, so the new plan is there even when the
 * user arrives before the webhook.
 */
export function mountBillingReturn(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/billing/success', async (c) => {
    const result = await checkoutReturn(c, deps, c.req.query('session_id') ?? '');
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.html(page('Pago', successBody(result)), result?.state === 'unknown' ? 404 : 200);
  });

  app.get('/billing/cancel', (c) =>
    c.html(
      page(
        'Pago cancelado',
        html`<h1>Pago cancelado</h1>
          <p id="status">CANCELLED</p>
          <p>No se hizo ningún cargo. Puedes elegir un plan cuando quieras.</p>`,
      ),
    ),
  );

  app.get('/billing/return', (c) =>
    c.html(
      page(
        'Portal de facturación',
        html`<h1>Volviste del portal de facturación</h1>
          <p>Los cambios que hiciste se reflejan en tu suscripción en unos momentos.</p>`,
      ),
    ),
  );
}
