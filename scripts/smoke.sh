#!/usr/bin/env bash
# scripts/smoke.sh: end-to-end smoke test of `pnpm start` (in-memory PGlite, a free port).
#   /health → register → verification mail from /__dev/mail.json → verify → login → /api/auth/me
#   → /api/docs and /api/openapi.json → [SMOKE_HOOK] → SIGTERM, and the server must exit within 15 s.
# Exit 0 when every step passed. The server runs in its own session (setsid) and its whole process
# group (pnpm → node) is killed on any exit.
# Env: SMOKE_PORT (default: a free ephemeral port), SMOKE_START_TIMEOUT (s, default 150: the build,
#      then a first start that loads the shipped SAT catalog: slow on a loaded CI box,
#      docs/benchmarks.md),
#      SMOKE_STOP_TIMEOUT (s, default 15), SMOKE_KEEP_LOG=1 to keep the server log,
#      SMOKE_HOOK: a command run against the live server once the account is verified and logged in,
#      with FOLIO_URL, FOLIO_TOKEN, FOLIO_EMAIL and FOLIO_PASSWORD set; it must exit 0
#      (scripts/sdk-consume.sh runs the SDK's consumer this way). With a hook the database lives in a
#      temporary directory, and the hook may restart the server: it writes SMOKE_RESTART_FILE, the
#      script stops the server (SIGTERM, waiting for it to exit), deletes the file and starts it again
#      without waiting for it, so the hook sees the outage and the return.
set -euo pipefail
cd "$(dirname "$0")/.."

START_TIMEOUT=${SMOKE_START_TIMEOUT:-150}
STOP_TIMEOUT=${SMOKE_STOP_TIMEOUT:-15}
T0=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/folio-smoke.XXXXXX")
LOG="$WORK/server.log"
PGID=""

say() { printf 'smoke [%3ds] %s\n' $((SECONDS - T0)) "$*"; }
fail() {
  say "FAIL: $*"
  if [ -s "$LOG" ]; then
    echo "---- server log (last 40 lines) ----"
    tail -n 40 "$LOG"
    echo "------------------------------------"
  fi
  exit 1
}

# Any live (non-zombie) process left in the server's process group?
group_alive() {
  [ -n "$PGID" ] || return 1
  ps -e -o pgid=,stat= | awk -v g="$PGID" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}
cleanup() {
  local rc=$?
  if group_alive; then
    kill -TERM -- "-$PGID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do group_alive || break; sleep 0.5; done
    group_alive && kill -KILL -- "-$PGID" 2>/dev/null || true
  fi
  if [ "${SMOKE_KEEP_LOG:-0}" = 1 ]; then say "server log kept at $LOG"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# A free port: let the kernel pick one (unless SMOKE_PORT says otherwise).
PORT=${SMOKE_PORT:-$(node -e '
  const s = require("node:net").createServer();
  s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')}
BASE="http://127.0.0.1:$PORT"

# JSON helpers (no jq): jget FILE EXPR evaluates EXPR with `j` bound to the parsed file.
jget() {
  node -e '
    const fs = require("node:fs");
    let j; try { j = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { process.exit(3); }
    const v = (0, eval)("(j) => (" + process.argv[2] + ")")(j);
    if (v === undefined || v === null) process.exit(4);
    process.stdout.write(typeof v === "string" ? v : JSON.stringify(v));' "$1" "$2"
}
# http METHOD PATH [curl args…] → prints the status code, body in $WORK/body
http() {
  local method=$1 path=$2
  shift 2
  curl -sS -o "$WORK/body" -w '%{http_code}' --max-time 20 -X "$method" "$@" "$BASE$path" || echo 000
}
expect() { # expect WHAT WANT GOT
  if [ "$3" != "$2" ]; then
    fail "$1: expected HTTP $2, got $3; body: $(head -c 600 "$WORK/body" 2>/dev/null)"
  fi
  say "ok  $1 → $3"
}

# In memory, unless a hook may restart the server: then on disk, so the data outlives the restart.
DATA=memory://
[ -z "${SMOKE_HOOK:-}" ] || DATA="$WORK/pgdata"
start_server() {
  # setsid: the server gets its own session and process group (pgid = its pid), so the whole
  # pnpm → node tree can be signalled at once.
  PORT=$PORT HOST=127.0.0.1 APP_URL=$BASE PGLITE_DATA_DIR=$DATA DATABASE_URL= LOG_LEVEL=info \
    NODE_ENV=development RESEND_API_KEY= \
    setsid pnpm start </dev/null >>"$LOG" 2>&1 &
  PGID=$!
}
stop_server() { # SIGTERM to the group; fails when it is still alive after STOP_TIMEOUT
  kill -TERM -- "-$PGID"
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while group_alive; do
    if [ $SECONDS -ge $deadline ]; then
      ps -e -o pid,pgid,stat,etime,cmd | awk -v g="$PGID" 'NR == 1 || $2 == g'
      return 1
    fi
    sleep 0.2
  done
  wait "$PGID" 2>/dev/null || true
}

say "starting \`pnpm start\` on $BASE (PGLITE_DATA_DIR=$DATA)"
start_server

deadline=$((SECONDS + START_TIMEOUT))
while :; do
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$BASE/health" || true)
  [ "$code" = 200 ] && break
  kill -0 "$PGID" 2>/dev/null || fail "the server exited before /health answered"
  [ $SECONDS -ge $deadline ] && fail "/health did not answer 200 within ${START_TIMEOUT}s (last: ${code:-none})"
  sleep 0.5
done
say "ok  GET /health → 200 (ready after $((SECONDS - T0))s)"

EMAIL="smoke-$(node -e 'console.log(require("node:crypto").randomBytes(6).toString("hex"))')@example.com"
PASSWORD=smoke-pass-123
CREDS=$(printf '{"email":"%s","password":"%s"}' "$EMAIL" "$PASSWORD")

code=$(http POST /api/auth/register -H 'Content-Type: application/json' --data "$CREDS")
expect "POST /api/auth/register ($EMAIL)" 201 "$code"

# The verification message is written to the outbox with the user; poll briefly anyway.
TOKEN=""
for _ in $(seq 1 20); do
  code=$(http GET /__dev/mail.json -G --data-urlencode "to=$EMAIL")
  if [ "$code" = 200 ]; then
    TOKEN=$(jget "$WORK/body" '
      (j.data || []).map((m) => /\/api\/auth\/verify-email\?token=([^\s&"'"'"'<>)]+)/.exec(String(m.text || ""))).find(Boolean)?.[1]
    ' 2>/dev/null) || TOKEN=""
    [ -n "$TOKEN" ] && break
  fi
  sleep 0.5
done
[ -n "$TOKEN" ] || fail "no verification link for $EMAIL in /__dev/mail.json (last HTTP $code; body: $(head -c 600 "$WORK/body"))"
say "ok  GET /__dev/mail.json → verification token found"

code=$(http GET "/api/auth/verify-email?token=$TOKEN")
expect "GET /api/auth/verify-email" 200 "$code"

code=$(http POST /api/auth/login -H 'Content-Type: application/json' --data "$CREDS")
expect "POST /api/auth/login" 200 "$code"
ACCESS=$(jget "$WORK/body" 'j.accessToken') || fail "login response has no accessToken: $(head -c 600 "$WORK/body")"

code=$(http GET /api/auth/me -H "Authorization: Bearer $ACCESS")
expect "GET /api/auth/me" 200 "$code"
verified=$(jget "$WORK/body" '(j.user ?? j).email_verified') || verified=missing
[ "$verified" = true ] || fail "/api/auth/me: email_verified is $verified, expected true; body: $(head -c 600 "$WORK/body")"
me_email=$(jget "$WORK/body" '(j.user ?? j).email') || me_email=missing
[ "$me_email" = "$EMAIL" ] || fail "/api/auth/me: email is $me_email, expected $EMAIL"
say "ok  /api/auth/me: email_verified=true"

code=$(http GET /api/docs)
expect "GET /api/docs" 200 "$code"
code=$(http GET /api/openapi.json)
expect "GET /api/openapi.json" 200 "$code"
jget "$WORK/body" 'j.openapi' >/dev/null || fail "/api/openapi.json is not an OpenAPI document"

if [ -n "${SMOKE_HOOK:-}" ]; then
  say "running SMOKE_HOOK: $SMOKE_HOOK"
  hook_rc=0
  RESTART="$WORK/restart-requested"
  FOLIO_URL=$BASE FOLIO_TOKEN=$ACCESS FOLIO_EMAIL=$EMAIL FOLIO_PASSWORD=$PASSWORD SMOKE_RESTART_FILE=$RESTART \
    bash -c "$SMOKE_HOOK" </dev/null &
  HOOK=$!
  while kill -0 "$HOOK" 2>/dev/null; do
    if [ -e "$RESTART" ]; then
      say "the hook asked for a restart: stopping the server"
      stop_server || fail "the server did not exit within ${STOP_TIMEOUT}s of SIGTERM"
      say "ok  stopped; starting it again"
      start_server
      rm -f "$RESTART"
    fi
    sleep 0.2
  done
  wait "$HOOK" || hook_rc=$?
  [ "$hook_rc" -eq 0 ] || fail "SMOKE_HOOK exited $hook_rc"
  say "ok  SMOKE_HOOK passed"
fi

say "sending SIGTERM to the server (process group $PGID)"
stop_server || fail "the server did not exit within ${STOP_TIMEOUT}s of SIGTERM"
PGID=""
if curl -s -o /dev/null --max-time 2 "$BASE/health"; then fail "something still answers on $BASE after shutdown"; fi
say "ok  the server exited after SIGTERM"
say "PASS"
