import type { Executor } from '@folio/db';
import type { SatGateway } from '@folio/sat';
import type { Context } from '../../context';
import { openEfirmaForJob } from '../efirma/store-efirma';
import { satSettingsOf } from './settings';

/**
 * The sync job's way in: the profile's stored e.firma, decrypted (an audit row names `purpose`),
 * as a gateway to the configured SAT. Undefined when the profile has no e.firma.
 */
export async function openSatSession(
  deps: { db: Executor; config: Context['config'] },
  profileId: string,
  purpose: string,
): Promise<SatGateway | undefined> {
  const efirma = await openEfirmaForJob(deps, profileId, purpose);
  if (!efirma) return undefined;
  const settings = satSettingsOf(deps.config);
  try {
    // Loaded by the first SAT call, not at start: the @nodecfdi clients (docs/benchmarks.md#memory).
    const { SatGateway } = await import('@folio/sat');
    return new SatGateway(efirma, { target: settings.target, fetch: settings.fetch });
  } finally {
    efirma.key.fill(0);
  }
}
