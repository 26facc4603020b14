-- Lets a GIN index hold plain columns (the owner, the profile) beside a tsvector or trigrams.
CREATE EXTENSION IF NOT EXISTS btree_gin;
