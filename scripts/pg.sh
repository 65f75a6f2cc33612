#!/usr/bin/env bash
# A private, throwaway PostgreSQL for tests.
#
#   scripts/pg.sh start DIR   start an instance whose files all live in DIR
#                             (created); prints one line on stdout, its URL:
#                             postgres://postgres@127.0.0.1:PORT/postgres
#   scripts/pg.sh stop DIR    stop it (fast mode) and delete DIR
#   scripts/pg.sh createdb DIR NAME
#                             create database NAME (letters, digits, _) in
#                             the running instance; prints its URL
#
# The instance listens on 127.0.0.1 on the first free port from 55432 up
# (PG_PORT_BASE overrides), with its unix socket in DIR, trust authentication
# for the superuser `postgres`, UTF-8, C collation (text sorts bytewise, as
# in SQLite) with C.UTF-8 character classes (so pg_trgm makes trigrams of
# Chinese text and the search indexes serve it), and durability switched off (fsync,
# synchronous_commit, full_page_writes): a crash loses the data, which a test
# instance does not mind. `start` on a DIR whose instance is running prints its
# URL again; on a stopped one it starts it again.
#
# Binaries: the newest /usr/lib/postgresql/*/bin (Debian's layout); without
# one, Debian's `postgresql` package is installed (root only). As root the
# server runs as the `postgres` user (initdb refuses root), so DIR is made
# theirs and its parent directories must be searchable by them (/tmp is).
# Progress goes to stderr; the server's log is DIR/log.
set -euo pipefail

PORT_BASE="${PG_PORT_BASE:-55432}"
PORT_TRIES=100

log() { echo "pg.sh: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}
usage() {
  echo "usage: $0 start DIR | stop DIR | createdb DIR NAME" >&2
  exit 2
}

[ $# -eq 2 ] || { [ $# -eq 3 ] && [ "$1" = createdb ]; } || usage
cmd="$1"
dir="$(realpath -m -- "$2")"
case "$dir" in
  *\'* | *' '* | *'"'* | *\\*) die "DIR must not contain quotes, blanks or backslashes: $dir" ;;
esac
data="$dir/data"
marker="$dir/.pg.sh"

# Runs a command as the server's owner: `postgres` when we are root, else us.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# Installs Debian packages, without a prompt and without the `main` cluster
# the postgresql package would otherwise create and start on port 5432.
apt_install() {
  [ "$(id -u)" -eq 0 ] || die "PostgreSQL is not installed; install $* (as root) first"
  command -v apt-get > /dev/null || die "PostgreSQL is not installed and there is no apt-get"
  if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    mkdir -p /etc/postgresql-common
    echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf
  fi
  export DEBIAN_FRONTEND=noninteractive
  local opts=(-y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  log "installing $* (apt-get)"
  if ! apt-get install "${opts[@]}" "$@" >&2; then
    log "install failed; apt-get update and retry"
    apt-get update -q >&2
    apt-get install "${opts[@]}" "$@" >&2
  fi
}

# The newest installed server's bin directory, or nothing.
newest_bindir() {
  local d
  # (`if`, not `&&`: with no server installed the glob stays unexpanded,
  # and a false test as the loop's last command would fail the pipeline,
  # which under `set -e -o pipefail` ends the script without a word.)
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ]; then echo "$d"; fi
  done | sort -V | tail -n 1
}

find_binaries() {
  bindir="$(newest_bindir)"
  if [ -z "$bindir" ]; then
    apt_install postgresql
    bindir="$(newest_bindir)"
    [ -n "$bindir" ] || die "installed postgresql but found no /usr/lib/postgresql/*/bin/initdb"
  fi
  local version
  version="$(basename "$(dirname "$bindir")")"
  if [ ! -e "/usr/share/postgresql/$version/extension/pg_trgm.control" ]; then
    apt_install postgresql-contrib
    [ -e "/usr/share/postgresql/$version/extension/pg_trgm.control" ] \
      || die "pg_trgm is still missing for PostgreSQL $version"
  fi
}

# The server's process id from its lock file, if that process is alive and a
# postgres (a zombie, a killed server not yet reaped, is not alive).
live_pid() {
  local pid state
  [ -f "$data/postmaster.pid" ] || return 1
  pid="$(head -n 1 "$data/postmaster.pid")"
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  state="$(sed 's/^.*) //' "/proc/$pid/stat" | cut -d ' ' -f 1)"
  [ "$state" != Z ] || return 1
  [ "$(cat "/proc/$pid/comm" 2> /dev/null)" = postgres ] || return 1
  echo "$pid"
}

running() { live_pid > /dev/null; }

url_of() { echo "postgres://postgres@127.0.0.1:$1/postgres"; }

# Whether something accepts connections on 127.0.0.1:$1.
port_taken() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

start() {
  find_binaries
  if [ -e "$dir" ] && [ ! -e "$marker" ] && [ -n "$(ls -A "$dir")" ]; then
    die "$dir exists, is not empty and was not made by pg.sh"
  fi
  if running; then
    local port
    port="$(sed -n 4p "$data/postmaster.pid")"
    log "already running in $dir on port $port"
    url_of "$port"
    return
  fi
  if [ -f "$data/postmaster.pid" ]; then
    log "removing the lock files of a server that is gone"
    rm -f "$data/postmaster.pid" "$dir"/.s.PGSQL.*.lock
  fi
  mkdir -p "$dir"
  touch "$marker"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres > /dev/null 2>&1 || die "there is no postgres user"
    chown postgres: "$dir" "$marker"
    as_owner test -w "$dir" -a -x "$dir" \
      || die "user postgres cannot write $dir (are its parent directories searchable?)"
  fi
  chmod 700 "$dir"
  if [ ! -f "$data/PG_VERSION" ]; then
    log "initdb $data ($bindir)"
    if ! as_owner "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C --lc-ctype=C.UTF-8 \
      --no-instructions > "$dir/initdb.log" 2>&1; then
      cat "$dir/initdb.log" >&2
      die "initdb failed"
    fi
  fi
  local port="$PORT_BASE" last=$((PORT_BASE + PORT_TRIES))
  while [ "$port" -lt "$last" ]; do
    if port_taken "$port"; then
      port=$((port + 1))
      continue
    fi
    : > "$dir/log"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/log"
    log "starting on 127.0.0.1:$port"
    if as_owner "$bindir/pg_ctl" -D "$data" -l "$dir/log" -w -t 60 \
      -o "-h 127.0.0.1 -p $port -k '$dir' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start > /dev/null 2>&1; then
      echo "$port" > "$dir/port"
      url_of "$port" > "$dir/url"
      url_of "$port"
      return
    fi
    # Another instance took the port between the test and the bind: next one.
    if grep -q 'could not bind\|Address already in use\|could not create any TCP/IP sockets' "$dir/log"; then
      log "port $port was taken meanwhile"
      port=$((port + 1))
      continue
    fi
    cat "$dir/log" >&2
    die "the server did not start"
  done
  die "no free port in $PORT_BASE..$((last - 1))"
}

stop() {
  if [ ! -e "$dir" ]; then
    log "$dir does not exist: nothing to stop"
    return
  fi
  [ -e "$marker" ] || die "$dir was not made by pg.sh; not deleting it"
  if running; then
    find_binaries
    log "stopping the instance in $dir"
    if ! as_owner "$bindir/pg_ctl" -D "$data" -m fast -w -t 60 stop > /dev/null 2>&1 && running; then
      die "pg_ctl stop failed (see $dir/log)"
    fi
  fi
  rm -rf -- "$dir"
  log "deleted $dir"
}

createdb() {
  local name="$1" port
  [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "a database name is letters, digits and _: $name"
  running || die "no instance runs in $dir"
  find_binaries
  port="$(cat "$dir/port")"
  as_owner "$bindir/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE $name" > /dev/null || die "cannot create database $name"
  log "created database $name"
  echo "postgres://postgres@127.0.0.1:$port/$name"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  createdb) createdb "$3" ;;
  *) usage ;;
esac
