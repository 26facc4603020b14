export { TRPCClientError } from '@trpc/client';
export { createFolioClient, type FolioClient } from './client';
export * from './rest-only';
export type { AppRouter, RouterInputs, RouterOutputs } from './router';
// Node only (standardwebhooks' types name Buffer): not in @folio/sdk/rest, which browsers import.
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks';
