// verifyWebhook (docs/webhooks.md#verifying): what Folio's signer sends verifies and comes back as
// the typed event; a changed body, a wrong secret or a stale timestamp throw.
import { describe, expect, it } from 'vitest';
import { newSecret, signedHeaders } from '../../api/src/services/webhooks/signing';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../src/index';

const event: WebhookEvent = {
  type: 'invoice.payment_status.updated',
  timestamp: '2026-11-25T12:00:00.000Z',
  data: {
    invoice_id: 'inv_1',
    profile_id: 'p_1',
    estado_anterior: 'NO_PAGADO',
    estado: 'PAGADO',
    saldo: 0,
    updated_at: '2026-11-25T12:00:00.000Z',
  },
};

describe('verifyWebhook', () => {
  const secret = newSecret();
  const body = JSON.stringify(event);

  it("returns the typed event of a delivery signed by Folio's signer (Node headers or Fetch Headers)", () => {
    const headers = signedHeaders([secret], 'msg_abc', new Date(), body);
    const got = verifyWebhook(body, headers, secret);
    expect(got).toEqual(event);
    if (got.type === 'invoice.payment_status.updated') expect(got.data.estado).toBe('PAGADO');
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).toEqual(event);
  });

  it('accepts either secret during a rotation (two signatures, space-separated)', () => {
    const next = newSecret();
    const headers = signedHeaders([next, secret], 'msg_abc', new Date(), body);
    expect(verifyWebhook(body, headers, secret)).toEqual(event);
    expect(verifyWebhook(body, headers, next)).toEqual(event);
  });

  it('throws on a changed body, a wrong secret or a timestamp older than 5 minutes', () => {
    const headers = signedHeaders([secret], 'msg_abc', new Date(), body);
    expect(() => verifyWebhook(body.replace('PAGADO', 'PAGADX'), headers, secret)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(body, headers, newSecret())).toThrow(WebhookVerificationError);
    const stale = signedHeaders([secret], 'msg_abc', new Date(Date.now() - 10 * 60_000), body);
    expect(() => verifyWebhook(body, stale, secret)).toThrow(WebhookVerificationError);
  });
});
