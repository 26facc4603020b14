import { z } from 'zod';
import { OffsetPage, OffsetPagination, SatAlert, SatFavorite, SatHistoryEntry } from '../schemas/sat-user';
import { alertsOf, readAlert } from '../services/sat/alerts';
import { favoritesOf, removeFavorite, saveFavorite } from '../services/sat/favorites';
import { clearSearchHistory, searchHistory } from '../services/sat/history';
import { MAX_NOTA_LENGTH } from '../services/sat/rules';
import { authedProcedure, router } from '../trpc';

// The PRO side of the SAT catalog (plan-features §4): what a user keeps of it. Each route answers 403
// naming the plan when the caller's plan lacks the feature; a downgrade hides, never deletes.

const Message = z.object({ message: z.string() });
const Code = z.object({ id: z.string().regex(/^\d{8}$/, 'the code must be 8 digits') });

export const satHistoryRouter = router({
  list: authedProcedure
    .input(OffsetPage)
    .output(z.object({ data: z.array(SatHistoryEntry), pagination: OffsetPagination }))
    .query(({ ctx, input }) => searchHistory(ctx, ctx.user.id, input)),

  clear: authedProcedure
    .input(z.object({}))
    .output(Message)
    .mutation(({ ctx }) => clearSearchHistory(ctx, ctx.user.id)),
});

export const satFavoritesRouter = router({
  list: authedProcedure
    .input(z.object({}))
    .output(z.object({ data: z.array(SatFavorite) }))
    .query(async ({ ctx }) => ({ data: await favoritesOf(ctx, ctx.user.id) })),

  save: authedProcedure
    .input(
      Code.extend({ nota: z.string().trim().max(MAX_NOTA_LENGTH).nullable().optional() }).meta({
        example: { nota: 'Licencias que revendo' },
      }),
    )
    .output(z.object({ message: z.string(), data: SatFavorite }))
    .mutation(({ ctx, input }) => saveFavorite(ctx, ctx.user.id, input.id, input.nota)),

  remove: authedProcedure
    .input(Code)
    .output(Message)
    .mutation(({ ctx, input }) => removeFavorite(ctx, ctx.user.id, input.id)),
});

export const satAlertsRouter = router({
  list: authedProcedure
    .input(OffsetPage)
    .output(z.object({ data: z.array(SatAlert), pagination: OffsetPagination }))
    .query(({ ctx, input }) => alertsOf(ctx, ctx.user.id, input)),

  read: authedProcedure
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(z.object({ message: z.string(), data: SatAlert }))
    .mutation(({ ctx, input }) => readAlert(ctx, ctx.user.id, input.id)),
});
