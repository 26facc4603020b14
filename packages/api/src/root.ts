import { apiKeysRouter } from './routers/api-keys';
import { authRouter } from './routers/auth';
import { cfdiRouter } from './routers/cfdi';
import { diotRouter } from './routers/diot';
import { efirmaRouter } from './routers/efirma';
import { expensesRouter } from './routers/expenses';
import { invoicesRouter } from './routers/invoices';
import { periodsRouter } from './routers/periods';
import { profilesRouter } from './routers/profiles';
import { reportsRouter } from './routers/reports';
import { satRouter } from './routers/sat';
import { satMetadataRouter } from './routers/sat-metadata';
import { satSyncRouter } from './routers/sat-sync';
import { subscriptionRouter } from './routers/subscription';
import { supportRouter } from './routers/support';
import { webhookEndpointsRouter } from './routers/webhook-endpoints';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  profiles: profilesRouter,
  invoices: invoicesRouter,
  cfdi: cfdiRouter,
  expenses: expensesRouter,
  periods: periodsRouter,
  sat: satRouter,
  satMetadata: satMetadataRouter,
  subscription: subscriptionRouter,
  apiKeys: apiKeysRouter,
  reports: reportsRouter,
  diot: diotRouter,
  efirma: efirmaRouter,
  satSync: satSyncRouter,
  support: supportRouter,
  webhookEndpoints: webhookEndpointsRouter,
});

export type AppRouter = typeof appRouter;
