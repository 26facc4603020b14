import type { RouteEntry } from './entry';

const tags = ['sat'];

/** The REST routes of SAT catalogs, search history, favorites and alerts. */
export const satRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/sat/history',
    procedure: 'sat.history.list',
    docs: {
      tags,
      summary: 'Your SAT catalog searches, newest first (satHasHistory)',
      description:
        'The basic and AI searches made while the plan keeps a history (the newest 1,000), with their filters and how many codes each found.',
    },
    errors: [400, 401, 403, 500],
  },
  {
    method: 'DELETE',
    path: '/sat/history',
    procedure: 'sat.history.clear',
    docs: {
      tags,
      summary: 'Clear your SAT search history (satHasHistory)',
      description: 'Deletes every recorded search of the caller.',
    },
    errors: [401, 403, 500],
  },
  {
    method: 'GET',
    path: '/sat/favorites',
    procedure: 'sat.favorites.list',
    docs: {
      tags,
      summary: 'Your favorite SAT codes with their catalog records (satHasFavorites)',
      description:
        'Each favorite is the catalog record as `/sat/{id}` serves it, plus `clave`, your `nota` and when it was added; newest first.',
    },
    errors: [401, 403, 500],
  },
  {
    method: 'PUT',
    path: '/sat/favorites/{id}',
    procedure: 'sat.favorites.save',
    docs: {
      tags,
      summary: 'Add a SAT code to your favorites (201), or update its note (200) (satHasFavorites)',
      description:
        'Saves the code as a favorite, with an optional note. An omitted `nota` keeps the current note; `null` or "" clears it. An unknown code answers 404; more than 500 favorites, 403.',
    },
    errors: [400, 401, 403, 404, 500],
    rest: { successStatus: 201, alsoOk: 'It was already a favorite; the note was updated' },
  },
  {
    method: 'DELETE',
    path: '/sat/favorites/{id}',
    procedure: 'sat.favorites.remove',
    docs: {
      tags,
      summary: 'Remove a SAT code from your favorites (satHasFavorites)',
      description: 'A code that is not one of your favorites answers 404.',
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'GET',
    path: '/sat/alerts',
    procedure: 'sat.alerts.list',
    docs: {
      tags,
      summary: 'Changes the SAT made to your favorite codes, newest first (satHasAlerts)',
      description:
        'Each catalog import compares your favorite codes with the new catalog and records one alert per change: `cambio` is fin_vigencia, iva, ieps, complemento, descripcion or eliminada, with the values before and after.',
    },
    errors: [400, 401, 403, 500],
  },
  {
    method: 'POST',
    path: '/sat/alerts/{id}/read',
    procedure: 'sat.alerts.read',
    docs: {
      tags,
      summary: 'Mark an alert as read (satHasAlerts)',
      description:
        'Sets `read_at` (the first reading is kept). Another user’s or an unknown alert answers 404.',
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'GET',
    path: '/sat/search',
    procedure: 'sat.search',
    docs: {
      tags,
      summary: 'Search the SAT product/service catalog (counts against the monthly quota)',
      description:
        "Ranked full-text search in Spanish over the c_ClaveProdServ catalog: accent-insensitive, with a typo-tolerant fallback and code prefixes. Each search counts against the plan's monthly quota (X-Quota-* headers; 429 past it). A cookie-authenticated call that a browser marks as coming from another site (`Sec-Fetch-Site`) answers 403 `cross_site_refused`.",
    },
    errors: [400, 401, 403, 429, 500],
  },
  {
    method: 'GET',
    path: '/sat/ai-search',
    procedure: 'sat.aiSearch',
    docs: {
      tags,
      summary: 'Search the SAT catalog by meaning, in everyday Spanish (BASIC and PRO; monthly quota)',
      description:
        'Finds the codes for a description in everyday Spanish ("renta de un depa", "le vendo pasteles a una cafetería"): a meaning model of the catalog, built from it and a shipped lexicon of colloquial and trade words (no external service), fused with the full-text search. Each item has a `score` (0–1) and, with `satHasAIExplanations` (PRO), an `explicacion` in Spanish drawn from the catalog row. Counts against `satAISearchesPerMonth` (X-Quota-* headers; 429 past it; 403 on a plan without it); results are capped by `satMaxResults`. A cookie-authenticated call from another site (`Sec-Fetch-Site`) answers 403 `cross_site_refused`.',
    },
    errors: [400, 401, 403, 429, 500],
  },
  {
    method: 'GET',
    path: '/sat/regimenes-fiscales',
    procedure: 'sat.regimenesFiscales',
    docs: {
      tags,
      summary: 'Fiscal regimes (c_RegimenFiscal), optionally for one person type',
      description:
        'The fiscal regimes of c_RegimenFiscal, optionally only those open to FISICA or MORAL persons.',
    },
    errors: [400, 401, 500],
  },
  {
    method: 'GET',
    path: '/sat/{id}',
    procedure: 'sat.byId',
    docs: {
      tags,
      summary: 'One SAT product/service code',
      description: 'One entry of c_ClaveProdServ by its 8-digit code.',
    },
    errors: [400, 401, 404, 500],
  },
];
