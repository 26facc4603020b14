import { sql } from 'drizzle-orm';
import { boolean, customType, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Text compared byte by byte, so a word's prefix is a range of the index (`lexeme >= 'ram' and < 'ram' || max`). */
const byteText = customType<{ data: string }>({ dataType: () => 'text collate "C"' });

/**
 * A listing search's dictionary of counterparties (docs/design.md#search): per account, side and
 * counterparty RFC, the words (`es_plain` lexemes) of that RFC and of every name seen with it, and
 * whether the names ever differed (then each row is checked again). Kept by the triggers of
 * migration 0033 on every insert and update of `cfdis`; never shrunk: a stale entry can only hold
 * more words than its rows (a candidate with no match) or be marked varied (a check more).
 */
export const searchCounterparties = pgTable(
  'search_counterparties',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    side: text('side', { enum: ['income', 'expense'] }).notNull(),
    rfc: text('rfc').notNull(),
    words: text('words').array().notNull(),
    varied: boolean('varied').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.side, t.rfc] }),
    // The candidates of a search: a word prefix reads that account's side alone (f_owned_words),
    // where testing every entry cost over a millisecond for 5,000 counterparties. Without
    // fastupdate: entries are added rarely and read by every search, and a pending list of 10,000
    // fresh entries cost each search 5 ms instead of 0.2 (docs/benchmarks.md).
    index('search_counterparties_words_idx')
      .using('gin', sql`f_owned_words(${t.userId} || '/' || ${t.side}, ${t.words})`)
      .with({ fastupdate: false }),
  ],
);

/**
 * Per account, every word found in a CFDI outside its counterparty: the concept and the own side's
 * RFC and name. A search none of whose words starts one of these can only match through
 * counterparties (the fast path); kept by the same triggers, never shrunk.
 */
export const searchOtherWords = pgTable(
  'search_other_words',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lexeme: byteText('lexeme').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lexeme] })],
);

/**
 * Accounts whose CFDI stored before the dictionary existed are not in it yet: their searches take
 * the search index until `backfillSearchDictionary` has added them and removed the row.
 */
export const searchDictionaryPending = pgTable('search_dictionary_pending', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
});
