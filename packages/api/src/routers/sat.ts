import { z } from 'zod';
import { TipoPersona } from '../schemas/profile';
import { FiscalRegime, SatAiSearchItem, SatProduct, SiNoOpcional } from '../schemas/sat';
import { aiSearchCatalog } from '../services/sat/ai-search';
import { getSatProduct, listRegimes } from '../services/sat/catalogs';
import { searchCatalog } from '../services/sat/search';
import { authedProcedure, router } from '../trpc';
import { satAlertsRouter, satFavoritesRouter, satHistoryRouter } from './sat-user';

const tags = ['sat'];

export const satRouter = router({
  history: satHistoryRouter,
  favorites: satFavoritesRouter,
  alerts: satAlertsRouter,

  search: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/search',
        tags,
        summary: 'Search the SAT product/service catalog (counts against the monthly quota)',
        description:
          "Ranked full-text search in Spanish over the c_ClaveProdServ catalog: accent-insensitive, with a typo-tolerant fallback and code prefixes. Each search counts against the plan's monthly quota (X-Quota-* headers; 429 past it). A cookie-authenticated call that a browser marks as coming from another site (`Sec-Fetch-Site`) answers 403 `cross_site_refused`.",
        errorResponses: [400, 401, 403, 429, 500],
      },
      rest: { quota: true },
    })
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
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/ai-search',
        tags,
        summary: 'Search the SAT catalog by meaning, in everyday Spanish (BASIC and PRO; monthly quota)',
        description:
          'Finds the codes for a description in everyday Spanish ("renta de un depa", "le vendo pasteles a una cafetería"): a meaning model of the catalog, built from it and a shipped lexicon of colloquial and trade words (no external service), fused with the full-text search. Each item has a `score` (0–1) and, with `satHasAIExplanations` (PRO), an `explicacion` in Spanish drawn from the catalog row. Counts against `satAISearchesPerMonth` (X-Quota-* headers; 429 past it; 403 on a plan without it); results are capped by `satMaxResults`. A cookie-authenticated call from another site (`Sec-Fetch-Site`) answers 403 `cross_site_refused`.',
        errorResponses: [400, 401, 403, 429, 500],
      },
      rest: { quota: true },
    })
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
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/regimenes-fiscales',
        tags,
        summary: 'Fiscal regimes (c_RegimenFiscal), optionally for one person type',
        description:
          'The fiscal regimes of c_RegimenFiscal, optionally only those open to FISICA or MORAL persons.',
        errorResponses: [400, 401, 500],
      },
    })
    .input(z.object({ tipo_persona: TipoPersona.optional() }))
    .output(z.object({ data: z.array(FiscalRegime) }))
    .query(async ({ ctx, input }) => ({ data: await listRegimes(ctx, input.tipo_persona) })),

  byId: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sat/{id}',
        tags,
        summary: 'One SAT product/service code',
        description: 'One entry of c_ClaveProdServ by its 8-digit code.',
        errorResponses: [400, 401, 404, 500],
      },
    })
    .input(z.object({ id: z.string().regex(/^\d{8}$/, 'the code must be 8 digits') }))
    .output(SatProduct)
    .query(({ ctx, input }) => getSatProduct(ctx, input.id)),
});
