#!/usr/bin/env bash
# Runs a command as on a machine with Node.js alone (issue 19 item 7), to check that the README's
# `npm test` passes there and says what it skipped:
#
#   sudo bash test/bare-machine.sh sh -c '. scripts/use-node.sh && npm test'
#
# The command runs in a network namespace of its own ("intake-bare", only a loopback interface:
# no Redis or PostgreSQL of this machine is reachable, and neither is the network) and in a mount
# namespace where redis-server, PostgreSQL's server programs and Chromium are hidden (/dev/null
# bound over each, which is then no program; /usr/lib/postgresql emptied). Nothing outside the
# command sees any of it. KEEP_PROGRAMS=1 leaves the programs in place: the tests must then start
# what they need themselves, inside the namespace. Needs root (ip netns, unshare, mount).
set -euo pipefail
[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }
namespace=intake-bare

if ! ip netns list | grep -qx "$namespace\( .*\)\?"; then
  ip netns add "$namespace"
fi
ip netns exec "$namespace" ip link set lo up

hide=""
if [ "${KEEP_PROGRAMS:-}" != 1 ]; then
  for program in redis-server initdb pg_ctl postgres chromium "${CHROMIUM_PATH:-/usr/bin/chromium}"; do
    found=$(command -v "$program" 2> /dev/null || true)
    [ -n "$found" ] || continue
    hide="$hide mount --bind /dev/null '$found';"
    real=$(readlink -f "$found")
    [ "$real" = "$found" ] || hide="$hide mount --bind /dev/null '$real';"
  done
  [ -d /usr/lib/postgresql ] && hide="$hide mount -t tmpfs tmpfs /usr/lib/postgresql;"
fi

# shellcheck disable=SC2016 # $@ is expanded by the inner shell
exec ip netns exec "$namespace" unshare --mount --propagation private \
  sh -c "set -e; $hide"' exec "$@"' bare-machine "$@"
