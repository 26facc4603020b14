import { authRouter } from './routers/auth';
import { cfdiRouter } from './routers/cfdi';
import { invoicesRouter } from './routers/invoices';
import { profilesRouter } from './routers/profiles';
import { satRouter } from './routers/sat';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  profiles: profilesRouter,
  invoices: invoicesRouter,
  cfdi: cfdiRouter,
  sat: satRouter,
});

export type AppRouter = typeof appRouter;
