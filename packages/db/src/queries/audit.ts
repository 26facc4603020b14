import { randomUUID } from 'node:crypto';
import type { Executor } from '../client';
import { auditLog } from '../schema';

export interface AuditEntry {
  userId: string | null;
  action: string;
  entity?: string;
  entityId?: string | null;
  ip?: string | null;
  requestId?: string | null;
  data?: Record<string, unknown>;
}

export async function writeAudit(db: Executor, e: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ id: randomUUID(), ...e });
}
