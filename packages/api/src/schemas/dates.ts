import { z } from 'zod';

const DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function realDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** An ISO 8601 date (time optional) naming a real calendar day; its date part is used as written. */
export const IsoDate = z
  .string()
  .trim()
  .regex(DATE, 'must be an ISO 8601 date (YYYY-MM-DD)')
  .refine(realDate, 'is not a real calendar date');
