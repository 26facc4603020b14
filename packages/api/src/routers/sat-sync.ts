import { z } from 'zod';
import { SyncJob, SyncJobCreate, SyncJobCreated } from '../schemas/sat-sync';
import { createSyncJob, getSyncJob, listSyncJobs } from '../services/sat-sync/sync-jobs';
import { authedProcedure, router } from '../trpc';

// SAT sync jobs (integrations.md §1 "Sync jobs", docs/sat-sync.md#sync-jobs). Creating is session only
// (the job opens the stored e.firma); reading is open to API keys.

export const satSyncRouter = router({
  create: authedProcedure
    .meta({ sessionOnly: true })
    .input(SyncJobCreate)
    .output(z.object({ data: SyncJobCreated }))
    .mutation(async ({ ctx, input: { profileId, ...job } }) => ({
      data: await createSyncJob(ctx, ctx.principal, profileId, job),
    })),

  get: authedProcedure
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(z.object({ data: SyncJob }))
    .query(async ({ ctx, input }) => ({ data: await getSyncJob(ctx, ctx.principal, input.id) })),

  list: authedProcedure
    .input(z.object({ profileId: z.string().min(1).max(100) }))
    .output(z.object({ data: z.array(SyncJob) }))
    .query(async ({ ctx, input }) => ({ data: await listSyncJobs(ctx, ctx.principal, input.profileId) })),
});
