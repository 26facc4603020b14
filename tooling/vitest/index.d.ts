import type { UserWorkspaceConfig } from 'vitest/config';

/** One vitest project per package; `db: true` gives each test file its own database. */
export function project(name: string, opts?: { db?: boolean }): UserWorkspaceConfig;
