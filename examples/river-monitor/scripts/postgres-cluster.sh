#!/usr/bin/env bash
# Throw-away PostgreSQL cluster, for the integration test and for any run of the monitor on PostgreSQL.
#
#   postgres-cluster.sh start PORT [OWNER_PID]
#                                    -> prints "PGDIR=<dir>" and "JDBC=<url>" once the server accepts
#                                       connections on 127.0.0.1:PORT (database "river", user postgres);
#                                       with OWNER_PID, a detached watcher stops the server once that
#                                       process is gone, however it ended (SIGKILL, a hook that never ran)
#   postgres-cluster.sh stop DIR     -> stops the server and deletes DIR; returns once its postmaster is gone
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
  local port=$1 owner=${2:-} bindir dir
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
  if [ -n "$owner" ]; then
    # its own session, so that a signal to the owner's process group does not end it before it acts
    setsid bash "$0" watch "$owner" "$dir" </dev/null >/dev/null 2>&1 &
  fi
  echo "PGDIR=$dir"
  echo "JDBC=jdbc:postgresql://127.0.0.1:$port/river?user=postgres"
}

# A process that runs (a zombie, which kill -0 still finds, does not).
alive() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

stop() {
  local dir=$1 bindir pid
  [ -d "$dir/data" ] || { rm -rf "$dir"; return 0; }
  bindir=$(find_bindir) || true
  pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null || true)
  as_db_user "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || echo "pg_ctl stop failed in $dir" >&2
  # pg_ctl returns once the pid file is gone, which can be before the postmaster is: never delete the
  # directory of a server that still runs
  if [ -n "$pid" ]; then
    for _ in $(seq 100); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      echo "the postmaster $pid of $dir outlived pg_ctl stop by 10 s: killed" >&2
      pkill -KILL -P "$pid" 2>/dev/null || true
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -rf "$dir"
}

# Waits for the owner to end (tail polls it once a second, without a process per poll), then stops.
watch() {
  local owner=$1 dir=$2
  tail --pid="$owner" -f /dev/null 2>/dev/null || while kill -0 "$owner" 2>/dev/null; do sleep 1; done
  stop "$dir" 2>/dev/null
}

case "${1:-}" in
  start) start "${2:?port}" "${3:-}" ;;
  # SIGPIPE ignored (and so in pg_ctl too): a stop whose caller's output is gone must still stop the server,
  # not die at its first line of output
  stop) trap '' PIPE; stop "${2:?dir}" ;;
  watch) trap '' PIPE; watch "${2:?owner pid}" "${3:?dir}" ;;
  *) echo "usage: $0 start PORT [OWNER_PID] | stop DIR" >&2; exit 2 ;;
esac
