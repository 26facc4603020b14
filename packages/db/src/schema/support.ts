import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgSequence, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The number in a support request's folio (`SOP-2026-000123`); gaps are harmless. */
export const supportFolioSeq = pgSequence('support_request_folio_seq');

/** A user's support request (integrations §3): what they asked, and what their plan promised then. */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: text('id').primaryKey(),
    folio: text('folio').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The profile it is about, if any; the request outlives the profile.
    profileId: text('profile_id').references(() => profiles.id, { onDelete: 'set null' }),
    asunto: text('asunto').notNull(),
    mensaje: text('mensaje').notNull(),
    prioridad: text('prioridad', { enum: ['normal', 'alta'] }).notNull(),
    plan: text('plan', { enum: ['FREE', 'BASIC', 'PRO', 'ENTERPRISE'] }).notNull(),
    respuestaEsperadaAntesDe: at('respuesta_esperada_antes_de').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('support_requests_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    check('support_requests_prioridad', sql`${t.prioridad} in ('normal', 'alta')`),
  ],
);

/**
 * The request ids of a user's latest failed calls (4xx and 5xx), so a support request can name
 * them (integrations §3); each write keeps the newest few per user.
 */
export const requestFailures = pgTable(
  'request_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: text('request_id').notNull(),
    status: integer('status').notNull(),
    code: text('code').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('request_failures_user_idx').on(t.userId, t.id.desc())],
);
