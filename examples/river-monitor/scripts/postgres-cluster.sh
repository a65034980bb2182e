#!/usr/bin/env bash
# Throw-away PostgreSQL cluster, for the integration test and for any run of the monitor on PostgreSQL.
#
#   postgres-cluster.sh start PORT   -> prints "PGDIR=<dir>" and "JDBC=<url>" once the server accepts
#                                       connections on 127.0.0.1:PORT (database "river", user postgres)
#   postgres-cluster.sh stop DIR     -> stops the server and deletes DIR
#
# Installs PostgreSQL with apt-get when initdb is missing (needs root). Exit code 3 means
# "PostgreSQL cannot be provided on this machine" (the test is then skipped); any other non-zero
# code is a real failure. Runs unattended: no stdin is read.
set -euo pipefail
exec </dev/null

cannot() { echo "CANNOT: $*" >&2; exit 3; }

find_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"; return 0
  fi
  return 1
}

as_db_user() {
  if [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then
      runuser -u postgres -- "$@"
    else
      su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

start() {
  local port=$1 bindir dir
  if ! bindir=$(find_bindir); then
    [ "$(id -u)" = 0 ] || cannot "PostgreSQL is not installed and we are not root"
    command -v apt-get >/dev/null 2>&1 || cannot "PostgreSQL is not installed and there is no apt-get"
    echo "installing PostgreSQL with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2 || cannot "apt-get update failed"
    apt-get install -y -q postgresql >&2 || cannot "apt-get install postgresql failed"
    bindir=$(find_bindir) || cannot "initdb still missing after installing postgresql"
  fi
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    cannot "running as root but there is no 'postgres' user to run the server"
  fi
  dir=$(mktemp -d /tmp/river-pg.XXXXXX)
  chmod 755 "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_db_user "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
  if ! as_db_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >&2; then
    cat "$dir/server.log" >&2 || true
    rm -rf "$dir"
    exit 1
  fi
  as_db_user "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres river >&2
  echo "PGDIR=$dir"
  echo "JDBC=jdbc:postgresql://127.0.0.1:$port/river?user=postgres"
}

stop() {
  local dir=$1 bindir
  [ -d "$dir/data" ] || { rm -rf "$dir"; return 0; }
  bindir=$(find_bindir) || true
  as_db_user "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "${2:?port}" ;;
  stop) stop "${2:?dir}" ;;
  *) echo "usage: $0 start PORT | stop DIR" >&2; exit 2 ;;
esac
