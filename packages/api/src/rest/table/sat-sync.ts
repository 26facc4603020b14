import type { RouteEntry } from './entry';

const tags = ['sat-sync'];

/** SAT sync jobs (docs/sat-sync.md#sync-jobs): the server downloads from SAT with the stored e.firma. */
export const satSyncRoutes: RouteEntry[] = [
  {
    method: 'POST',
    path: '/profiles/{profileId}/sat-sync',
    procedure: 'satSync.create',
    docs: {
      operationId: 'sat-sync-create',
      tags,
      summary: 'Start a SAT sync job (202: it runs in the background)',
      description:
        'Asks SAT for the period’s CFDI and/or metadata with the stored e.firma and imports them. Answers 202 ' +
        '`{id, estado: pendiente}`; follow it with GET /sat-sync/{id}. Session only (an API key gets 403 ' +
        '`session_required`); BASIC (10 a month, then 429) and PRO (FREE: 403 naming BASIC). 409 ' +
        '`efirma_required` / `efirma_unusable` without a usable stored e.firma; 400 `sync_period_invalid` ' +
        'with `fields` for a period SAT does not serve (at most one year, not in the future, six years back).',
    },
    errors: [400, 401, 403, 404, 409, 429, 500],
    rest: { successStatus: 202 },
  },
  {
    method: 'GET',
    path: '/profiles/{profileId}/sat-sync',
    procedure: 'satSync.list',
    docs: {
      operationId: 'sat-sync-list',
      tags,
      summary: "The profile's SAT sync jobs, newest first (the latest 100)",
      description: 'Each with its SAT requests and counts. API keys may read.',
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'GET',
    path: '/sat-sync/{id}',
    procedure: 'satSync.get',
    docs: {
      operationId: 'sat-sync-get',
      tags,
      summary: 'One SAT sync job: its estado, SAT requests and counts',
      description:
        'Estados: pendiente → solicitada → en_proceso → descargando → importando → terminada | error. ' +
        "404 unless the job's profile is yours. API keys may read.",
    },
    errors: [401, 404, 500],
  },
];

/** `POST /{invoices|expenses}/{id}/sat-status`: one CFDI asked of SAT's status service, the same on both sides. */
export function satStatusCheckEntry(side: 'invoices' | 'expenses', tags: string[]): RouteEntry {
  return {
    method: 'POST',
    path: `/${side}/{id}/sat-status`,
    procedure: side === 'invoices' ? 'invoices.checkSatStatus' : 'expenses.checkSatStatus',
    docs: {
      tags,
      summary: `Ask SAT's status service for ${side === 'invoices' ? 'an income' : 'an expense'} CFDI and record its answer`,
      description:
        'Records `estatus_sat` with `estatus_fuente: "consulta"` through the same precedence as every source ' +
        "(docs/sat-status.md) and answers the CFDI's SAT status fields with SAT's own answer (`sat`). " +
        '"No Encontrado" records nothing (a CFDI never checked stays `desconocido`). BASIC and PRO ' +
        '(FREE: 403 naming BASIC); 503 when SAT does not answer.',
    },
    errors: [401, 403, 404, 500, 503],
  };
}
