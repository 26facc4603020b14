#!/usr/bin/env bash
# scripts/with-postgres.sh <cmd…>
#
# Runs <cmd…> against a throwaway PostgreSQL 15 cluster and returns the command's exit code.
#   - initdb in a temp directory (trust auth, UTF8, C.UTF-8), tuned for tests (fsync/synchronous_commit/
#     full_page_writes off, max_connections=200), listening on 127.0.0.1 only, unix socket inside the temp dir;
#   - a free port, tried from ${PGPORT:-54329} upward;
#   - as root, initdb/pg_ctl run as the `postgres` user via runuser (they refuse to run as root);
#   - the cluster is always stopped and deleted on exit.
# Exported to <cmd…>:
#   TEST_DATABASE_URL  postgres://postgres@127.0.0.1:$PORT/postgres
#   PG_TEST_PORT       the port
#   PG_TEST_DATA       the data directory (all settings, the port included, live in its config files,
#                      so a plain `pg_ctl -D $PG_TEST_DATA start` brings the same server back)
#   PG_TEST_CTL        a wrapper for pg_ctl on this cluster that works as root too:
#                      "$PG_TEST_CTL" stop -m fast   /   "$PG_TEST_CTL" start   /   "$PG_TEST_CTL" status
#   PG_TEST_BIN        the PostgreSQL bin directory
# Debian's postgresql-15 is installed with apt when missing (needs root).
set -euo pipefail

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
log() { printf 'with-postgres: %s\n' "$*" >&2; }

if [ $# -eq 0 ]; then
  echo "usage: $0 <command> [args…]" >&2
  exit 2
fi

IS_ROOT=0
[ "$(id -u)" = 0 ] && IS_ROOT=1

if [ ! -x "$PGBIN/initdb" ]; then
  if [ "$IS_ROOT" = 1 ] && command -v apt-get >/dev/null; then
    log "installing postgresql-15 with apt…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq -o DPkg::Lock::Timeout=600 >/dev/null
    apt-get install -y -qq -o DPkg::Lock::Timeout=600 postgresql-15 >/dev/null
  fi
  if [ ! -x "$PGBIN/initdb" ]; then
    log "no $PGBIN/initdb; install Debian's postgresql-15 (apt-get install postgresql-15) or set PGBIN"
    exit 127
  fi
fi

RUNAS=()
if [ "$IS_ROOT" = 1 ]; then
  id postgres >/dev/null 2>&1 || { log "running as root but there is no 'postgres' user"; exit 1; }
  RUNAS=(runuser -u postgres --)
fi

# The temp dir must be reachable by the postgres user; a root-only $TMPDIR is not.
BASE=${TMPDIR:-/tmp}
if [ "$IS_ROOT" = 1 ] && ! runuser -u postgres -- test -w "$BASE" 2>/dev/null; then BASE=/tmp; fi
DIR=$(mktemp -d "$BASE/folio-pg.XXXXXX")
DATA="$DIR/data"
STARTED=0

cleanup() {
  if [ "$STARTED" = 1 ]; then
    (cd "$DIR" && "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w -t 30 stop >/dev/null 2>&1) || true
  fi
  rm -rf "$DIR"
}
trap cleanup EXIT
# Turn signals into a normal exit so the EXIT trap runs (128+signal, like the shell would report).
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

chmod 755 "$DIR"
[ "$IS_ROOT" = 1 ] && chown postgres: "$DIR"

# Run as the server's owner, from a directory it can enter (the caller's cwd may be /root/…).
as_pg() { (cd "$DIR" && "${RUNAS[@]}" "$@"); }

if ! as_pg "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-instructions \
  >"$DIR/initdb.log" 2>&1; then
  cat "$DIR/initdb.log" >&2
  log "initdb failed"
  exit 1
fi

as_pg tee -a "$DATA/postgresql.conf" >/dev/null <<EOF

# --- with-postgres.sh: throwaway test cluster ---
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
include_if_exists = 'port.conf'
EOF

port_in_use() {
  # Something answering on 127.0.0.1, or anything listening on the port on any address.
  if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
  if command -v ss >/dev/null && ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; then return 0; fi
  return 1
}

PORT=${PGPORT:-54329}
for _ in $(seq 1 50); do
  if port_in_use "$PORT"; then PORT=$((PORT + 1)); continue; fi
  echo "port = $PORT" | as_pg tee "$DATA/port.conf" >/dev/null
  : >"$DIR/server.log"
  [ "$IS_ROOT" = 1 ] && chown postgres: "$DIR/server.log"
  if as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 start >/dev/null 2>&1; then
    STARTED=1
    break
  fi
  # Lost a race for the port: try the next one. Anything else is a real failure.
  if grep -qiE 'could not (bind|create listen)|address already in use' "$DIR/server.log"; then
    PORT=$((PORT + 1))
    continue
  fi
  cat "$DIR/server.log" >&2
  log "PostgreSQL failed to start"
  exit 1
done
if [ "$STARTED" != 1 ]; then
  log "no free port found from ${PGPORT:-54329} upward"
  exit 1
fi

# pg_ctl for this cluster, as the right user, for tests that stop/start the server.
cat >"$DIR/pg_ctl" <<EOF
#!/usr/bin/env bash
cd "$DIR" && exec ${RUNAS[*]} "$PGBIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w "\$@"
EOF
chmod 755 "$DIR/pg_ctl"

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
export PG_TEST_PORT=$PORT PG_TEST_DATA=$DATA PG_TEST_CTL="$DIR/pg_ctl" PG_TEST_BIN=$PGBIN
log "PostgreSQL $("$PGBIN/postgres" -V | awk '{print $3}') on 127.0.0.1:$PORT (data $DATA)"

set +e
"$@"
rc=$?
set -e
exit "$rc"
