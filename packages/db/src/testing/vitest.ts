import { inject } from 'vitest';
import type { DbHandle, OpenDbOptions } from '../client';
import { openTestDb } from './index';
import type {} from './provided';

/** The test file's own database (PGlite from the template, or PostgreSQL under TEST_DATABASE_URL). */
export function testDb(opts: Pick<OpenDbOptions, 'logQuery'> = {}): Promise<DbHandle> {
  return openTestDb(inject('pgliteTemplate'), opts);
}
