#!/usr/bin/env bash
# scripts/sdk-consume.sh: the SDK as someone outside the workspace gets it.
#   pnpm --filter @folio/sdk build → check-dist (self-contained .d.ts) → pnpm pack
#   → publint and attw on the tarball
#   → a throwaway npm project in a temp dir: npm i <tarball> typescript @types/node
#   → tsc on packages/sdk/consumer/consumer.ts and every ```ts example of README.md and
#     packages/sdk/README.md (strict, skipLibCheck off; emits JS), the examples again with
#     exactOptionalPropertyTypes
#   → a REST-only npm project (the tarball alone: no tRPC, no TypeScript): @folio/sdk/rest type-checked
#     as a browser project, loaded by Node with the bin
#   → scripts/smoke.sh with SMOKE_HOOK running the compiled consumer (tRPC, REST and the `folio` bin
#     from the tarball) against `pnpm start`: it logs in with email and password, imports samples/cfdi
#     and walks the invoices page by page while smoke.sh restarts the server after the first page.
# Exit 0 when all of it passed. Needs the npm registry for the consumer's install.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
T0=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/folio-sdk.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf 'sdk [%3ds] %s\n' $((SECONDS - T0)) "$*"; }
fail() {
  say "FAIL: $*"
  exit 1
}
run_logged() { # run_logged WHAT LOG CMD…: quiet on success, the log's tail on failure
  local what=$1 log=$2
  shift 2
  if ! "$@" >"$log" 2>&1; then
    tail -n 40 "$log" | sed 's/^/    /'
    fail "$what"
  fi
  say "ok  $what"
}
# The exact version pinned in the workspace catalog, so the consumer uses what we test with.
catalog() { sed -n "s|^  \"\\{0,1\\}$1\"\\{0,1\\}: *||p" pnpm-workspace.yaml | head -n 1; }

run_logged "pnpm --filter @folio/sdk build" "$WORK/build.log" pnpm --filter @folio/sdk build
node packages/sdk/scripts/check-dist.mjs || fail "the built package is not self-contained"

run_logged "pnpm pack" "$WORK/pack.log" bash -c "cd packages/sdk && pnpm pack --pack-destination '$WORK'"
TARBALL=$(ls "$WORK"/folio-sdk-*.tgz)
say "    $(basename "$TARBALL"): $(du -k "$TARBALL" | cut -f1) KB"
# grep reads the whole listing (no -q): under pipefail an early exit would SIGPIPE tar and fail.
tar -tzf "$TARBALL" | grep -x 'package/LICENSE' >/dev/null || fail "the tarball carries no LICENSE file"

# The tarball as registries and type checkers judge it (both offline). ESM only, so require() from
# CommonJS is expected to fail; node10 resolution (top-level `types`) is still checked.
run_logged "publint --strict (the tarball)" "$WORK/publint.log" \
  pnpm --filter @folio/sdk exec publint run --strict "$TARBALL"
run_logged "attw (the tarball)" "$WORK/attw.log" \
  pnpm --filter @folio/sdk exec attw "$TARBALL" --no-definitely-typed --ignore-rules cjs-resolves-to-esm

APP="$WORK/consumer"
mkdir -p "$APP"
cp packages/sdk/consumer/consumer.ts packages/sdk/consumer/tsconfig.json packages/sdk/consumer/tsconfig.exact.json "$APP/"
node packages/sdk/scripts/readme-snippets.mjs "$APP" README.md packages/sdk/README.md
printf '{ "name": "folio-sdk-consumer", "private": true, "type": "module" }\n' >"$APP/package.json"
TS=$(catalog typescript)
NODE_TYPES=$(catalog @types/node)
TRPC=$(catalog @trpc/client)
[ -n "$TS" ] && [ -n "$NODE_TYPES" ] && [ -n "$TRPC" ] || fail "typescript, @types/node or @trpc/client missing from the catalog"
# tRPC is an optional peer of the SDK: a tRPC app installs it beside the SDK.
run_logged "npm i <tarball> @trpc/client@$TRPC @trpc/server@$TRPC typescript@$TS @types/node@$NODE_TYPES (outside the workspace)" "$WORK/npm.log" \
  bash -c "cd '$APP' && npm install --no-audit --no-fund --no-package-lock --loglevel=error '$TARBALL' '@trpc/client@$TRPC' '@trpc/server@$TRPC' 'typescript@$TS' '@types/node@$NODE_TYPES'"
if grep -Eq "['\"]@folio/(api|auth|billing|cfdi|db|email|tsconfig)" "$APP/node_modules/@folio/sdk/dist/index.d.ts"; then
  fail "the installed types import a workspace package"
fi
run_logged "tsc (strict, skipLibCheck off) on consumer.ts and the README examples" "$WORK/tsc.log" bash -c "cd '$APP' && ./node_modules/.bin/tsc -p ."
run_logged "tsc (exactOptionalPropertyTypes) on the README examples" "$WORK/tsc-exact.log" \
  bash -c "cd '$APP' && ./node_modules/.bin/tsc -p tsconfig.exact.json"

# A REST-only app installs the tarball alone: neither tRPC nor the TypeScript its peer asks for comes
# along; @folio/sdk/rest type-checks as a browser project and loads (with the bin) in Node.
REST="$WORK/rest-only"
mkdir -p "$REST"
cp packages/sdk/consumer/rest-only/browser.ts packages/sdk/consumer/rest-only/tsconfig.json "$REST/"
printf '{ "name": "folio-sdk-rest-only", "private": true, "type": "module" }\n' >"$REST/package.json"
run_logged "npm i <tarball> alone (a REST-only app)" "$WORK/npm-rest.log" \
  bash -c "cd '$REST' && npm install --no-audit --no-fund --no-package-lock --loglevel=error '$TARBALL'"
for dep in typescript @trpc/client @trpc/server; do
  [ ! -e "$REST/node_modules/$dep" ] || fail "a REST-only install brought $dep"
done
run_logged "tsc (browser: DOM, no Node types, no esnext.disposable, skipLibCheck off) on @folio/sdk/rest" \
  "$WORK/tsc-rest.log" "$APP/node_modules/.bin/tsc" -p "$REST"
run_logged "node loads @folio/sdk/rest and runs folio --help without tRPC" "$WORK/node-rest.log" \
  bash -c "cd '$REST' && node --input-type=module -e \"const m = await import('@folio/sdk/rest'); if (typeof m.createFolioRestClient !== 'function') process.exit(1);\" && ./node_modules/.bin/folio --help"

say "running the consumer against pnpm start (scripts/smoke.sh)"
SMOKE_HOOK="FOLIO_SAMPLES='$ROOT/samples/cfdi' node '$APP/dist/consumer.js'" bash "$ROOT/scripts/smoke.sh" ||
  fail "the consumer failed against the server"
say "PASS"
