import type { TestProject } from 'vitest/node';
import type {} from './provided';
import { ensurePgliteTemplate } from './template';

/** Vitest global setup: builds (or reuses) the PGlite template unless tests run on PostgreSQL. */
export default async function setup(project: TestProject) {
  if (!process.env.TEST_DATABASE_URL) project.provide('pgliteTemplate', await ensurePgliteTemplate());
}
