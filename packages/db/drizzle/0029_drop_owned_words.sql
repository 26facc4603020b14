-- The words index it built is gone (0028): f_search_keys keys the words, the UUID and its last block.
DROP FUNCTION IF EXISTS f_owned_words(text, tsvector);
