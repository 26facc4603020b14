import { z } from 'zod';
import { TipoPersona } from '../schemas/profile';
import { FiscalRegime, SatAiSearchItem, SatProduct, SiNoOpcional } from '../schemas/sat';
import { aiSearchCatalog } from '../services/sat/ai-search';
import { getSatProduct, listRegimes } from '../services/sat/catalogs';
import { searchCatalog } from '../services/sat/search';
import { authedProcedure, router } from '../trpc';
import { satAlertsRouter, satFavoritesRouter, satHistoryRouter } from './sat-user';

export const satRouter = router({
  history: satHistoryRouter,
  favorites: satFavoritesRouter,
  alerts: satAlertsRouter,

  search: authedProcedure
    .meta({ quota: true })
    .input(
      z.object({
        query: z.string().trim().max(200).optional(),
        incluir_iva_trasladado: SiNoOpcional.optional(),
        incluir_ieps_trasladado: SiNoOpcional.optional(),
        limit: z.number().int().min(1).max(100).default(20),
        offset: z.number().int().min(0).max(100_000).default(0),
      }),
    )
    .output(
      z.object({ items: z.array(SatProduct), total: z.number(), limit: z.number(), offset: z.number() }),
    )
    .query(({ ctx, input }) => searchCatalog(ctx, ctx.user.id, input)),

  aiSearch: authedProcedure
    .meta({ quota: true })
    .input(
      z.object({
        query: z.string().trim().min(1).max(200),
        limit: z.number().int().min(1).max(100).default(20),
        offset: z.number().int().min(0).max(1_000).default(0),
      }),
    )
    .output(
      z.object({
        items: z.array(SatAiSearchItem),
        total: z.number(),
        limit: z.number(),
        offset: z.number(),
        query: z.string(),
      }),
    )
    .query(({ ctx, input }) => aiSearchCatalog(ctx, ctx.user.id, input)),

  regimenesFiscales: authedProcedure
    .input(z.object({ tipo_persona: TipoPersona.optional() }))
    .output(z.object({ data: z.array(FiscalRegime) }))
    .query(async ({ ctx, input }) => ({ data: await listRegimes(ctx, input.tipo_persona) })),

  byId: authedProcedure
    .input(z.object({ id: z.string().regex(/^\d{8}$/, 'the code must be 8 digits') }))
    .output(SatProduct)
    .query(({ ctx, input }) => getSatProduct(ctx, input.id)),
});
