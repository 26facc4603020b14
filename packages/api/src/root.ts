import { authRouter } from './routers/auth';
import { profilesRouter } from './routers/profiles';
import { satRouter } from './routers/sat';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  profiles: profilesRouter,
  sat: satRouter,
});

export type AppRouter = typeof appRouter;
