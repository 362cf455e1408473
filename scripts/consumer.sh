#!/usr/bin/env bash
# Proof that the published packages work for a project nobody here wrote: build and pack every public package,
# lint the tarballs, install them into a fresh project outside the repository and use them there.
#
#   bash scripts/consumer.sh            (also run by .ci/run; needs Debian's chromium, see .ci/run)
#
# Environment: SMSBOOK_CHROMIUM (default /usr/bin/chromium), SMSBOOK_CONSUMER_KEEP=1 keeps the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
fixtures=$repo/scripts/consumer
packages=(core store carrier http batch)
chromium=${SMSBOOK_CHROMIUM:-/usr/bin/chromium}
# Exact versions: what "TypeScript 5.9" and "Node 22" mean for this proof.
typescript59=typescript@5.9.3
node22=node@22.23.3
types_node=@types/node@24.19.2

work=$(mktemp -d "${TMPDIR:-/tmp}/smsbook-consumer.XXXXXX")
case "$work" in "$repo"/*) echo "the consumer folder must be outside the repository" >&2; exit 1 ;; esac
[ "${SMSBOOK_CONSUMER_KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
node24=$repo/node_modules/.bin/node
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
started=$SECONDS
step() { printf '\n== %s (%ss)\n' "$*" "$((SECONDS - started))"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

step "build"
npm run -s build

step "size budgets (size-limit)"
npx size-limit

step "pack"
mkdir -p "$work/tarballs"
for package in "${packages[@]}"; do
  (cd "packages/$package" && npm pack --silent --pack-destination "$work/tarballs" >/dev/null)
done
ls "$work/tarballs"

step "tarball contents, publint --strict, attw --profile esm-only"
for tarball in "$work"/tarballs/*.tgz; do
  listing=$(tar tzf "$tarball")
  for required in package/package.json package/README.md package/LICENSE package/dist/index.js package/dist/index.d.ts package/dist/index.d.ts.map package/dist/index.js.map; do
    grep -qx "$required" <<<"$listing" || fail "$(basename "$tarball") lacks $required"
  done
  if grep -E '(^package/test/|\.test\.[cm]?[jt]s$|^package/tsconfig)' <<<"$listing"; then fail "$(basename "$tarball") carries tests or build files"; fi
  npx publint --strict "$tarball"
  npx attw --profile esm-only "$tarball" --format table-flipped
done

step "npm publish --dry-run"
for package in "${packages[@]}"; do
  (cd "packages/$package" && npm publish --dry-run --tag dry-run 2>&1 | tail -n 4)
done

step "a fresh project outside the repository, with the tarballs, Node 22 and TypeScript 5.9"
app=$work/app
mkdir -p "$app"
cp "$fixtures"/checks.js "$fixtures"/esm.js "$fixtures"/require.cjs "$fixtures"/consumer.ts "$fixtures"/page.js \
  "$fixtures"/tsconfig.nodenext.json "$fixtures"/tsconfig.node16.json "$fixtures"/tsconfig.bundler.json "$app"/
cat >"$app/package.json" <<'JSON'
{ "name": "a-service", "version": "1.0.0", "private": true, "type": "module", "allowScripts": { "node": true } }
JSON
# The service also talks SMPP through the untyped `smpp` package, with types of its own: smsbook's declarations must
# not put theirs in its program too (two `declare module "smpp"` collide, TS2300). The tsconfigs list this file.
cat >"$app/smpp.d.ts" <<'TS'
declare module "smpp" {
  export class Session {
    close(): void
  }
  export function connect(url: string): Session
}
TS
# The service installs effect itself, as the READMEs say: smsbook's libraries take it as a peer, so there is one copy
# (a second one under a package makes the service's Effect and Result values fail to type-check against smsbook's).
(cd "$app" && npm install --no-save --silent "$work"/tarballs/*.tgz effect "$node22" "$typescript59" "$types_node")
copies=$(cd "$app" && find . -path '*/node_modules/effect/package.json' | wc -l)
[ "$copies" = 1 ] || fail "effect is installed $copies times: smsbook's libraries must use the service's"
node22_bin=$app/node_modules/node/bin/node
[ -x "$node22_bin" ] || node22_bin=$app/node_modules/.bin/node
"$node22_bin" --version | grep -q '^v22\.' || fail "Node 22 is not $("$node22_bin" --version)"

step "plain JavaScript: import and require() on Node 22 and 24"
for node in "$node22_bin" "$node24"; do
  (cd "$app" && "$node" esm.js && "$node" --no-warnings require.cjs)
done

step "TypeScript consumer: nodenext, node16 and bundler, skipLibCheck off, TypeScript 5.9 and the repository's"
for tsc in "$app/node_modules/.bin/tsc" "$repo/node_modules/.bin/tsc"; do
  for project in nodenext node16 bundler; do
    echo "$("$tsc" --version) ($project)"
    (cd "$app" && "$tsc" -p "tsconfig.$project.json")
  done
done

step "the installed smsbook command (Node 22, local install)"
expected_version=$("$node24" -p 'require("./packages/batch/package.json").version')
version=$(cd "$app" && PATH="$(dirname "$node22_bin"):$PATH" npx --no-install smsbook --version)
echo "$version"
grep -q "$expected_version" <<<"$version" || fail "smsbook --version printed '$version', not $expected_version"
(cd "$app" && PATH="$(dirname "$node22_bin"):$PATH" npx --no-install smsbook import "$repo/samples/contacts.csv" \
  --default-country GB --store "sqlite:$work/node22.db" --json >"$work/import22.json")
"$node24" -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (s.read !== 20 || s.created !== 20 || !s.committed) throw new Error(JSON.stringify(s)); console.log("imported", s.created, "contacts")' "$work/import22.json"

step "npm install -g of the tarballs (Node 24)"
global=$work/global
PATH="$(dirname "$node24"):$PATH" npm install -g --silent --prefix "$global" "$work"/tarballs/*.tgz
PATH="$(dirname "$node24"):$PATH" "$global/bin/smsbook" --version | grep -q "$expected_version" || fail "global smsbook --version"
(cd "$work" && PATH="$(dirname "$node24"):$PATH" "$global/bin/smsbook" import "$repo/samples/contacts.csv" \
  --default-country GB --store "sqlite:$work/global.db" --json >"$work/import24.json")
"$node24" -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (s.created !== 20) throw new Error(JSON.stringify(s)); console.log("imported", s.created, "contacts")' "$work/import24.json"
(cd "$work" && PATH="$(dirname "$node24"):$PATH" "$global/bin/smsbook" inspect "Hi" --short-name ACME --json >/dev/null)

step "the browser: Sms bundled with esbuild, run in headless Chromium"
[ -x "$chromium" ] || fail "no Chromium at $chromium (Debian: apt-get install chromium)"
"$node24" "$fixtures/browser.ts" "$app" "$chromium" 40

step "other runtimes (only if installed)"
for runtime in bun deno; do
  if command -v "$runtime" >/dev/null; then
    echo "$runtime $("$runtime" --version | head -n 1):"
    (cd "$app" && if [ "$runtime" = deno ]; then deno run --allow-read --allow-env esm.js; else bun esm.js; fi) || echo "$runtime: failed (not required)"
  else
    echo "$runtime: not installed, skipped"
  fi
done

printf "\nconsumer proof: every step passed in %ss\n" "$((SECONDS - started))"
