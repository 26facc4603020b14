import type { RouteEntry } from './entry';

const tags = ['support'];

/** Support requests by plan (docs/support.md). */
export const supportRoutes: RouteEntry[] = [
  {
    method: 'POST',
    path: '/support/requests',
    procedure: 'support.create',
    docs: {
      tags,
      summary: 'Ask for support (BASIC: email, PRO: priority)',
      description:
        'Records the request, mails it to the support team with your plan, profiles and your last failed request ids, ' +
        'and mails you an acknowledgement. BASIC: normal priority, an answer within 2 business days; PRO: high ' +
        'priority, within 4 business hours (Monday–Friday, Mexico City). FREE answers 403 naming BASIC.',
    },
    errors: [400, 401, 403, 404, 500],
    rest: { successStatus: 201 },
  },
  {
    method: 'GET',
    path: '/support/requests',
    procedure: 'support.list',
    docs: {
      tags,
      summary: 'Your support requests, newest first',
      description: 'Only your own, whatever your plan now (a downgrade keeps the history readable).',
    },
    errors: [401, 500],
  },
];
