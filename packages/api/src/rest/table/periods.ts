import type { RouteEntry } from './entry';

const tags = ['periods'];

/** The REST routes of accounting periods. */
export const periodsRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/periods',
    procedure: 'periods.list',
    docs: {
      tags,
      summary: "A profile's accounting periods",
      description:
        'The accounting periods of one profile (id or RFC), each a month that is ABIERTO or CERRADO.',
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'POST',
    path: '/periods',
    procedure: 'periods.open',
    docs: {
      tags,
      summary: 'Open the period of a month (201), or get the existing one (200)',
      description:
        'Opens the accounting period of a month for a profile. Calling it again for the same month answers the existing period (200), so it is safe to retry.',
    },
    errors: [400, 401, 403, 404, 500],
    rest: { successStatus: 201, alsoOk: 'The period of that month already existed' },
  },
  ...(['close', 'reopen'] as const).map(
    (verb): RouteEntry => ({
      method: 'POST',
      path: `/periods/{id}/${verb}`,
      procedure: `periods.${verb}`,
      docs: {
        tags,
        summary:
          verb === 'close' ? 'Close a period: no more manual expenses in it' : 'Reopen a closed period',
        description:
          verb === 'close'
            ? 'Marks the period CERRADO: manual expenses can no longer be recorded in it until it is reopened.'
            : 'Marks a closed period ABIERTO again, so manual expenses can be recorded in it.',
      },
      errors: [401, 403, 404, 500],
    }),
  ),
];
