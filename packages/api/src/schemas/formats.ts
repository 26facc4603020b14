import { z } from 'zod';

// Output strings with the OpenAPI `format` they always have (the server writes them), so generated
// clients and validators know them. Documentation only: outputs are not re-checked against it.

/** An id the server made (randomUUID). */
export const Uuid = z.string().meta({ format: 'uuid' });
/** A moment, written by `Date.toISOString()`. */
export const Timestamp = z.string().meta({ format: 'date-time' });
/** A calendar day, YYYY-MM-DD. */
export const Day = z.string().meta({ format: 'date' });
export const Email = z.string().meta({ format: 'email' });
