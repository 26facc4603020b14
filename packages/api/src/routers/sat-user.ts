import { z } from 'zod';
import { OffsetPage, OffsetPagination, SatAlert, SatFavorite, SatHistoryEntry } from '../schemas/sat-user';
import { alertsOf, readAlert } from '../services/sat/alerts';
import { favoritesOf, removeFavorite, saveFavorite } from '../services/sat/favorites';
import { clearSearchHistory, searchHistory } from '../services/sat/history';
import { MAX_NOTA_LENGTH } from '../services/sat/rules';
import { authedProcedure, router } from '../trpc';

// The PRO side of the SAT catalog (plan-features §4): what a user keeps of it. Each route answers 403
// naming the plan when the caller's plan lacks the feature; a downgrade hides, never deletes.

const tags = ['sat'];
const Message = z.object({ message: z.string() });
const Code = z.object({ id: z.string().regex(/^\d{8}$/, 'the code must be 8 digits') });

export const satHistoryRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/history',
        tags,
        summary: 'Your SAT catalog searches, newest first (satHasHistory)',
        description:
          'The basic and AI searches made while the plan keeps a history (the newest 1,000), with their filters and how many codes each found.',
        errorResponses: [400, 401, 403, 500],
      },
    })
    .input(OffsetPage)
    .output(z.object({ data: z.array(SatHistoryEntry), pagination: OffsetPagination }))
    .query(({ ctx, input }) => searchHistory(ctx, ctx.user.id, input)),

  clear: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/sat/history',
        tags,
        summary: 'Clear your SAT search history (satHasHistory)',
        description: 'Deletes every recorded search of the caller.',
        errorResponses: [401, 403, 500],
      },
    })
    .input(z.object({}))
    .output(Message)
    .mutation(({ ctx }) => clearSearchHistory(ctx, ctx.user.id)),
});

export const satFavoritesRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/favorites',
        tags,
        summary: 'Your favorite SAT codes with their catalog records (satHasFavorites)',
        description:
          'Each favorite is the catalog record as `/sat/{id}` serves it, plus `clave`, your `nota` and when it was added; newest first.',
        errorResponses: [401, 403, 500],
      },
    })
    .input(z.object({}))
    .output(z.object({ data: z.array(SatFavorite) }))
    .query(async ({ ctx }) => ({ data: await favoritesOf(ctx, ctx.user.id) })),

  save: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/sat/favorites/{id}',
        tags,
        summary: 'Add a SAT code to your favorites (201), or update its note (200) (satHasFavorites)',
        description:
          'Saves the code as a favorite, with an optional note. An omitted `nota` keeps the current note; `null` or "" clears it. An unknown code answers 404; more than 500 favorites, 403.',
        errorResponses: [400, 401, 403, 404, 500],
      },
      rest: { successStatus: 201, alsoOk: 'It was already a favorite; the note was updated' },
    })
    .input(
      Code.extend({ nota: z.string().trim().max(MAX_NOTA_LENGTH).nullable().optional() }).meta({
        example: { nota: 'Licencias que revendo' },
      }),
    )
    .output(z.object({ message: z.string(), data: SatFavorite }))
    .mutation(({ ctx, input }) => saveFavorite(ctx, ctx.user.id, input.id, input.nota)),

  remove: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/sat/favorites/{id}',
        tags,
        summary: 'Remove a SAT code from your favorites (satHasFavorites)',
        description: 'A code that is not one of your favorites answers 404.',
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(Code)
    .output(Message)
    .mutation(({ ctx, input }) => removeFavorite(ctx, ctx.user.id, input.id)),
});

export const satAlertsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/alerts',
        tags,
        summary: 'Changes the SAT made to your favorite codes, newest first (satHasAlerts)',
        description:
          'Each catalog import compares your favorite codes with the new catalog and records one alert per change: `cambio` is fin_vigencia, iva, ieps, complemento, descripcion or eliminada, with the values before and after.',
        errorResponses: [400, 401, 403, 500],
      },
    })
    .input(OffsetPage)
    .output(z.object({ data: z.array(SatAlert), pagination: OffsetPagination }))
    .query(({ ctx, input }) => alertsOf(ctx, ctx.user.id, input)),

  read: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/sat/alerts/{id}/read',
        tags,
        summary: 'Mark an alert as read (satHasAlerts)',
        description:
          'Sets `read_at` (the first reading is kept). Another user’s or an unknown alert answers 404.',
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(z.object({ message: z.string(), data: SatAlert }))
    .mutation(({ ctx, input }) => readAlert(ctx, ctx.user.id, input.id)),
});
