#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for the adapter's contract tests.
#   scripts/postgres.sh start   installs Debian's postgresql if needed, starts a cluster, prints its URL
#   scripts/postgres.sh stop    stops the cluster started by `start` and removes its data
# The cluster lives in a temporary folder named in .postgres-test (git-ignored); it runs as user postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
state=.postgres-test
port=${SMSBOOK_PG_PORT:-54329}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin_dir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

install() {
  [ -n "$(bin_dir)" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "postgres.sh: PostgreSQL is not installed and this is not root; install Debian's postgresql" >&2
    exit 1
  fi
  echo "postgres.sh: installing Debian's postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
}

start() {
  install
  local bin data
  bin=$(bin_dir)
  data=$(mktemp -d /tmp/smsbook-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres: "$data"
  as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  as_postgres "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
  as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres smsbook_test
  echo "$data" > "$state"
  echo "postgres://postgres@127.0.0.1:$port/smsbook_test"
}

stop() {
  [ -f "$state" ] || return 0
  local data
  data=$(cat "$state")
  as_postgres "$(bin_dir)/pg_ctl" -D "$data" -m fast -w stop >/dev/null || true
  rm -rf "$data" "$state"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: scripts/postgres.sh start|stop" >&2; exit 2 ;;
esac
