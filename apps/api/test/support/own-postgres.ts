/**
 * A throwaway PostgreSQL cluster owned by one test file, for tests that stop and start the server:
 * doing that to the shared cluster of scripts/with-postgres.sh would break every other test file
 * running on it at the same time. Same recipe as that script: initdb in a temp directory (trust
 * auth, UTF8, C.UTF-8, fsync off), 127.0.0.1 only, unix socket inside the directory; as root,
 * initdb/pg_ctl run as the `postgres` user through runuser (they refuse to run as root).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/** scripts/with-postgres.sh exports PG_TEST_BIN; Debian's postgresql-15 otherwise. */
export const PG_BIN = process.env.PG_TEST_BIN ?? process.env.PGBIN ?? '/usr/lib/postgresql/15/bin';

/** Whether this machine can start a cluster of its own. */
export const canRunOwnPostgres = () =>
  existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));

/** A port nobody listens on right now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** URL of another database on this cluster. */
  urlFor(database: string): string;
  /** `pg_ctl stop -m fast`: open connections are terminated, new ones refused. */
  stop(): Promise<void>;
  /** `pg_ctl start` again: same directory, same port. */
  start(): Promise<void>;
  /** Stops the cluster (immediate) and deletes its directory. */
  destroy(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  // The directory must be reachable by the postgres user; a root-only TMPDIR is not.
  const dir = await mkdtemp(join(isRoot ? '/tmp' : tmpdir(), 'folio-own-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  await chmod(dir, 0o755);
  if (isRoot) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    await chown(dir, await id('-u'), await id('-g'));
  }
  const asPg = (cmd: string, args: string[]) =>
    isRoot
      ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], { cwd: dir, timeout: 120_000 })
      : run(cmd, args, { cwd: dir, timeout: 120_000 });

  let port = 0;
  let running = false;
  // Settings go on the command line, so nothing is written into the postgres-owned data directory.
  const pgCtl = (...args: string[]) =>
    asPg(join(PG_BIN, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      log,
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
      ...args,
    ]);
  // If the test process ends without destroy(), still stop the cluster (synchronously, on exit).
  const orphanGuard = () => {
    if (!running) return;
    const args = [join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
    try {
      if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', ...args], { cwd: dir, stdio: 'ignore' });
      else execFileSync(args[0]!, args.slice(1), { cwd: dir, stdio: 'ignore' });
    } catch {
      // best effort
    }
  };
  process.once('exit', orphanGuard);
  const destroy = async () => {
    process.off('exit', orphanGuard);
    if (running) await pgCtl('-m', 'immediate', 'stop').catch(() => {});
    running = false;
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await asPg(join(PG_BIN, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-instructions',
    ]);
    for (let attempt = 0; attempt < 10 && !running; attempt++) {
      port = await freePort();
      try {
        await pgCtl('start');
        running = true;
      } catch (err) {
        const text = await readFile(log, 'utf8').catch(() => '');
        // Lost a race for the port: try another. Anything else is a real failure.
        if (!/could not (bind|create listen)|address already in use/i.test(text))
          throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${text}`);
      }
    }
    if (!running) throw new Error('PostgreSQL did not start: no free port');
  } catch (err) {
    await destroy();
    throw err;
  }
  const urlFor = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor('postgres'),
    port,
    urlFor,
    stop: async () => {
      await pgCtl('-m', 'fast', 'stop');
      running = false;
    },
    start: async () => {
      await pgCtl('start');
      running = true;
    },
    destroy,
  };
}
