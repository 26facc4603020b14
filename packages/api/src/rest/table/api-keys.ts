import type { RouteEntry } from './entry';

const tags = ['api-keys'];

/** The REST routes of API keys. */
export const apiKeysRoutes: RouteEntry[] = [
  {
    method: 'POST',
    path: '/api-keys',
    procedure: 'apiKeys.create',
    docs: {
      tags,
      summary: 'Create an API key (BASIC or PRO, verified email); the key is shown only in this answer',
      description:
        "Creates a key for scripts and servers, sent as `Authorization: Bearer folio_…`. Only the hash is stored, so the key appears in this answer and never again. A `read` key may call GET routes only. Needs BASIC or PRO and a verified email (403); only the user's own session may create keys.",
    },
    errors: [400, 401, 403, 500],
    rest: { successStatus: 201 },
  },
  {
    method: 'GET',
    path: '/api-keys',
    procedure: 'apiKeys.list',
    docs: {
      tags,
      summary: 'Your active API keys, newest first (never the key itself)',
      description:
        "The caller's keys that are not revoked: name, scope, prefix and when each was last used. The key itself cannot be read back.",
    },
    errors: [401, 403, 500],
  },
  {
    method: 'DELETE',
    path: '/api-keys/{id}',
    procedure: 'apiKeys.revoke',
    docs: {
      tags,
      summary: 'Revoke an API key; it stops working at once',
      description:
        "Revokes one of the caller's keys; requests made with it answer 401 from now on. Another user's key answers 404.",
    },
    errors: [401, 403, 404, 500],
  },
];
