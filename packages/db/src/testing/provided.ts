/** What the global setup hands to test files. */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate?: string;
  }
}

export {};
