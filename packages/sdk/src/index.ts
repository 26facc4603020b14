export { TRPCClientError } from '@trpc/client';
export { createFolioClient, type FolioClient } from './client';
export * from './rest-only';
export type { AppRouter, RouterInputs, RouterOutputs } from './router';
