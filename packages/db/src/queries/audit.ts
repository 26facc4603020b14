import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../client';
import { auditLog } from '../schema';

export interface AuditEntry {
  userId: string | null;
  action: string;
  entity?: string;
  entityId?: string;
  ip?: string | null;
  requestId?: string | null;
  data?: Record<string, unknown>;
}

export async function writeAudit(db: Db | Tx, e: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ id: randomUUID(), ...e });
}
