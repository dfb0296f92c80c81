# Puts a supported Node.js first on PATH, for this shell: `. scripts/use-node.sh [22|24]`.
#
# Intake runs on Node.js 24 (the active LTS, the main line) and 22. When the Node on PATH is
# one of those (or the one asked for), nothing changes. Otherwise the official build is
# fetched once from the npm registry (package `node-linux-<arch>`, the same binaries as
# nodejs.org) into ~/.cache/intake/node-<version> and put first on PATH, with
# npm_config_nodedir pointing at its headers for native builds. Only the npm registry is
# needed, which is why this does not use nvm or nodejs.org.
#
# Sourced, not run: it changes the caller's PATH. Exits the calling shell's command with
# an error message when it cannot help.

intake_use_node() {
  local want="${1:-}" pinned version arch cache current
  # The versions CI tests; a newer patch of the same line works too.
  case "$want" in
    22) pinned=22.23.3 ;;
    24 | '') pinned=24.21.0 ;;
    *) echo "use-node: Node.js $want is not supported; use 22 or 24" >&2; return 1 ;;
  esac
  current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)"
  if [ -n "$want" ] && [ "$current" = "$want" ]; then return 0; fi
  if [ -z "$want" ] && { [ "$current" = 22 ] || [ "${current:-0}" -ge 24 ]; } 2>/dev/null; then return 0; fi

  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "use-node: no Node.js build for $(uname -m) on the npm registry; install Node.js 24 yourself" >&2; return 1 ;;
  esac
  version="$pinned"
  cache="${INTAKE_NODE_CACHE:-$HOME/.cache/intake}/node-$version-linux-$arch"
  if [ ! -x "$cache/bin/node" ]; then
    if ! command -v npm > /dev/null; then
      echo "use-node: npm is needed to fetch Node.js $version (or install Node.js 24 yourself)" >&2
      return 1
    fi
    echo "use-node: fetching Node.js $version from the npm registry into $cache" >&2
    local tmp
    tmp="$(mktemp -d)"
    # npm's own error shown (a proxy's certificate, say): --silent hid why a fetch failed
    if ! (cd "$tmp" && npm pack --loglevel=error "node-linux-$arch@$version" > /dev/null); then
      rm -rf "$tmp"
      echo "use-node: could not fetch node-linux-$arch@$version from the npm registry" >&2
      return 1
    fi
    mkdir -p "$cache"
    tar xzf "$tmp"/node-linux-"$arch"-"$version".tgz -C "$cache" --strip-components=1
    rm -rf "$tmp"
  fi
  export PATH="$cache/bin:$PATH"
  export npm_config_nodedir="$cache"
  hash -r 2> /dev/null || true
  echo "use-node: using Node.js $(node -v) from $cache" >&2
}

intake_use_node "$@"
