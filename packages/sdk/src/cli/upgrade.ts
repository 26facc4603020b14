import { CliError, EXIT, type Io, UsageError } from './io';
import { openSession } from './session';

const PLANS = ['BASIC', 'PRO'] as const;

/**
 * `folio upgrade [--plan BASIC|PRO] [--anual] [--complete-dev]`: opens a checkout and prints its URL
 * to pay on. `--complete-dev` pays it at once, which only the offline dev billing provider allows
 * (its `/__dev/billing/checkout/{id}/complete`; a server with real billing has no such route).
 */
export async function upgradeCommand(
  io: Io,
  flags: {
    url?: string;
    token?: string;
    config?: string;
    plan?: string;
    anual?: boolean;
    'complete-dev'?: boolean;
  },
): Promise<number> {
  const plan = (flags.plan ?? 'PRO').toUpperCase();
  if (!PLANS.includes(plan as (typeof PLANS)[number])) throw new UsageError('--plan must be BASIC or PRO');
  const session = await openSession(io, flags, { sessionOnly: true });
  const { data } = await session.client.rest.POST('/subscription/create-checkout', {
    body: { plan: plan as (typeof PLANS)[number], ...(flags.anual ? { billing: 'annual' as const } : {}) },
  });
  if (!flags['complete-dev']) {
    io.stdout.write(`Abre esta dirección para pagar el plan ${plan}:\n${data.url}\n`);
    return EXIT.ok;
  }
  const res = await (io.fetch ?? globalThis.fetch)(
    `${session.url.replace(/\/+$/, '')}/__dev/billing/checkout/${encodeURIComponent(data.sessionId)}/complete`,
    { method: 'POST', redirect: 'manual' },
  );
  if (res.status === 404) {
    throw new CliError(`${session.url} has no offline dev billing provider: pay at ${data.url}`);
  }
  if (res.status >= 400) throw new CliError(`the dev checkout answered ${res.status}: pay at ${data.url}`);
  const { data: sub } = await session.client.rest.GET('/subscription');
  io.stdout.write(`Plan ${sub.plan} activo (${sub.status}).\n`);
  return EXIT.ok;
}
