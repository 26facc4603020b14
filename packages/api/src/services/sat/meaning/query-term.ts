/** One weighted stem of a query and where it came from: the user's word, or a reading of it. */
export interface QueryTerm {
  stem: string;
  /** The term's own word: the user's, or the catalog word the lexicon gave. */
  text: string;
  weight: number;
  /** The user's word (as typed, lower case). */
  word: string;
  /**
   * The lexicon phrase, the catalog noun of the verb typed (derive.ts), or the catalog word read for
   * a word the catalog lacks (unknown-words.ts), that brought this term in, when it did not come
   * straight from the query.
   */
  via?: string;
}
