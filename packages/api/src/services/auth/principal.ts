import type { SessionRow, UserRow } from '@folio/auth';

/** Who is calling, and how: every authenticated procedure and route sees exactly this. */
export interface Principal {
  user: UserRow;
  /** A session (access token or cookie) or an API key. */
  via: 'session' | 'api_key';
  /** A session may do all its user may; a `read` key only reads. */
  scope: 'read' | 'write';
  session: SessionRow | null;
  apiKeyId: string | null;
}
