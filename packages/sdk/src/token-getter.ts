/** Where a client gets its bearer token on each request (a fixed key, or a refreshing session). */
export type TokenGetter = () => string | null | undefined | Promise<string | null | undefined>;
