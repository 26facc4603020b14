import type { Db } from '@folio/db';
import type { Context } from '../../context';
import { authorizeProfile } from './access';

/** Profile ids this process has seen a user own, by database; a profile never changes owner. */
const owners = new WeakMap<Db, Map<string, string>>();
const OWNERS_MAX = 10_000;

function ownersOf(db: Db): Map<string, string> {
  let known = owners.get(db);
  if (!known) {
    known = new Map();
    owners.set(db, known);
  }
  return known;
}

/**
 * A listing of the caller's rows, of one profile when `ref` names one, with the same answers as
 * `authorizeProfile` first (404 missing, 403 someone else's) but, for a profile id this process has
 * already seen the caller own, without reading the profile: ownership never changes, and a page that
 * holds rows proves the profile still exists (its rows cascade with it). An empty page asks
 * `authorizeProfile`, so a deleted or foreign profile answers as before. One statement fewer for most
 * listings (docs/benchmarks.md, "CPU per request").
 */
export async function listOfProfile<R extends { rows: unknown[] }>(
  ctx: Context,
  userId: string,
  ref: string | undefined,
  list: (profileId: string | undefined) => Promise<R>,
): Promise<R> {
  if (!ref) return list(undefined);
  const known = ownersOf(ctx.db);
  const owned = known.get(ref) === userId;
  const listed = owned ? await list(ref) : undefined;
  if (listed?.rows.length) return listed;
  const profile = await authorizeProfile(ctx, userId, ref, 'read');
  // Only ids: an RFC names whichever of the caller's profiles holds it now.
  if (profile.id === ref && !owned) {
    if (known.size >= OWNERS_MAX) known.delete(known.keys().next().value!);
    known.set(ref, userId);
  }
  return listed ?? list(profile.id);
}
