import { BillingError } from '@folio/billing';
import type { Context } from '../../context';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';

/** Billing refusals in the contract's terms (docs/contract.md#routes); a provider failure is a 500. */
export async function asAppErrors<T>(ctx: Context, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    switch (err.kind) {
      case 'invalid_promotion_code':
        throw badRequest(err.message, 'promotion_code_invalid');
      case 'already_subscribed':
        throw conflict(err.message, 'already_subscribed');
      case 'no_paid_subscription':
        throw forbidden(err.message, 'no_paid_subscription');
      case 'idempotency_key_reused':
        throw conflict(err.message, 'idempotency_key_reused');
      case 'customer_missing':
        throw notFound(err.message, 'customer_missing');
      default:
        ctx.log.error({ err: err.cause ?? err }, err.message);
        throw new AppError('INTERNAL_SERVER_ERROR', err.message);
    }
  }
}
