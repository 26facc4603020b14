// The OpenAPI document's `webhooks` section (integrations §2, issue 29): one documented webhook per
// event type of services/webhooks/event-types.ts, with the Standard Webhooks headers and the body
// `{type, timestamp, data}` whose `data` is the type's own payload.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { buildOpenApiDocument } from '../src/openapi';
import { SubscribableEvent } from '../src/schemas/webhook-endpoint';
import { WEBHOOK_EVENT_DATA, type WebhookEventName } from '../src/schemas/webhook-event';
import type { WebhookEventData, WebhookEventType } from '../src/services/webhooks/event-types';
import { SUBSCRIBABLE_EVENTS } from '../src/services/webhooks/events';

type Schema = { $ref?: string; properties?: Record<string, Schema>; required?: string[]; const?: string };
const doc = buildOpenApiDocument({ version: '0.0.0', serverUrl: 'http://localhost/api' }) as unknown as {
  webhooks: Record<
    string,
    {
      post: {
        parameters: { in: string; name: string }[];
        requestBody: { content: { 'application/json': { schema: Schema } } };
      };
    }
  >;
  components: { schemas: Record<string, Schema> };
};
const resolve = (s: Schema) => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!]! : s);

describe('the webhooks section documents every event Folio sends', () => {
  it('the documented payloads are the event types of event-types.ts, field for field (typecheck holds it)', () => {
    // A type added to event-types.ts without a schema here, or a field that differs, fails `pnpm typecheck`.
    expectTypeOf<WebhookEventName>().toEqualTypeOf<WebhookEventType>();
    expectTypeOf<{
      [K in WebhookEventName]: z.infer<(typeof WEBHOOK_EVENT_DATA)[K]>;
    }>().toEqualTypeOf<WebhookEventData>();
  });

  it('has one webhook per event type, and an endpoint subscribes to exactly the ones events.ts emits', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(WEBHOOK_EVENT_DATA).sort());
    expect([...SubscribableEvent.options].sort()).toEqual([...SUBSCRIBABLE_EVENTS].sort());
    for (const type of SUBSCRIBABLE_EVENTS) expect(Object.keys(doc.webhooks)).toContain(type);
  });

  it.each(Object.keys(WEBHOOK_EVENT_DATA))(
    '%s: the webhook-id, webhook-timestamp and webhook-signature headers, and {type, timestamp, data}',
    (type) => {
      const op = doc.webhooks[type]!.post;
      expect(op.parameters.filter((p) => p.in === 'header').map((p) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const body = resolve(op.requestBody.content['application/json'].schema);
      expect(body.required?.sort()).toEqual(['data', 'timestamp', 'type']);
      expect(body.properties?.type?.const).toBe(type);
      const data = resolve(body.properties!.data!);
      expect(Object.keys(data.properties ?? {})).toEqual(
        Object.keys(WEBHOOK_EVENT_DATA[type as WebhookEventName].shape),
      );
      expect(data.required).toContain('updated_at');
    },
  );
});
