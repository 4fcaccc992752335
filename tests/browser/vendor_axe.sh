#!/usr/bin/env bash
# Vendors axe-core's axe.min.js into tests/browser/vendor/ for the accessibility check of the
# browser tests (never served by the app). npm's registry, a pinned version, a checked digest.
set -euo pipefail
VERSION=4.10.3
SHA256=880970c081707360e64f34cea25ff91892f5bc95675b0776925b9709dd8a68bb
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$here/vendor/axe.min.js"
if [ -f "$target" ] && echo "$SHA256  $target" | sha256sum -c --status; then
  exit 0
fi
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "axe-core@$VERSION" --silent >/dev/null && \
  tar xzf "axe-core-$VERSION.tgz" package/axe.min.js)
echo "$SHA256  $tmp/package/axe.min.js" | sha256sum -c --status || {
  echo "axe-core $VERSION: unexpected digest" >&2; exit 1; }
mkdir -p "$here/vendor"
cp "$tmp/package/axe.min.js" "$target"
