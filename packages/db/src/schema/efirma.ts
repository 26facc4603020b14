import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';

/**
 * A profile's e.firma (docs/sat-sync.md#efirma), stored only with the taxpayer's consent. The
 * certificate, key and password are one AES-256-GCM payload under a random data key of this row;
 * that key is stored wrapped by the master key of `key_version` (EFIRMA_ENCRYPTION_KEY). Both
 * ciphertexts are base64 of nonce ‖ ciphertext ‖ tag, so both drivers read them alike. The
 * metadata beside them is public certificate data, shown by GET. Deleting the row destroys the
 * wrapped key, and with it the payload.
 */
export const efirmas = pgTable('efirmas', {
  id: text('id').primaryKey(),
  profileId: text('profile_id')
    .notNull()
    .unique()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  rfc: text('rfc').notNull(),
  numeroCertificado: text('numero_certificado').notNull(),
  validoDesde: timestamp('valido_desde', { withTimezone: true, mode: 'date' }).notNull(),
  validoHasta: timestamp('valido_hasta', { withTimezone: true, mode: 'date' }).notNull(),
  keyVersion: integer('key_version').notNull(),
  wrappedKey: text('wrapped_key').notNull(),
  payload: text('payload').notNull(),
  consentVersion: text('consent_version').notNull(),
  consentAt: timestamp('consent_at', { withTimezone: true, mode: 'date' }).notNull(),
  consentIp: text('consent_ip'),
  /** When SAT refused it during a sync (codes 304/305: revoked or not valid); a new upload replaces the row. */
  refusedAt: timestamp('refused_at', { withTimezone: true, mode: 'date' }),
  /** When its owner was mailed that it expires within 30 days (once per row: a replacement is a new row). */
  expiryNoticeAt: timestamp('expiry_notice_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
