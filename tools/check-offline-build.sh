#!/bin/bash
# SPDX-License-Identifier: MIT
# The build a distribution or an offline machine makes: the release tarball (meson dist) unpacked alone,
# configured with default options but -Dtests=disabled, built and installed (DESTDIR), while every tool that
# could fetch something fails: nothing of a build may need the network (the corpus is the test command's).
# Usage: bash tools/check-offline-build.sh libspvcond-VERSION.tar.xz
set -euo pipefail
tarball=$(realpath "${1:?usage: check-offline-build.sh TARBALL}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/no-network"
for tool in apt-get apt apt-cache dpkg dpkg-deb curl wget; do
    printf '#!/bin/sh\necho "%s: no network in an offline build" >&2\nexit 1\n' "$tool" > "$work/no-network/$tool"
    chmod +x "$work/no-network/$tool"
done
tar xJf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'libspvcond-*')
export PATH="$work/no-network:$PATH"
meson setup "$work/build" "$src" -Dtests=disabled > "$work/setup.log" 2>&1 || { cat "$work/setup.log"; exit 1; }
ninja -C "$work/build" > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
meson install -C "$work/build" --destdir "$work/dest" --quiet > "$work/install.log" 2>&1 ||
    { tail -40 "$work/install.log"; exit 1; }
if grep -qiE "corpus|no network" "$work/build.log" "$work/install.log"; then
    grep -iE "corpus|no network" "$work/build.log" "$work/install.log" | head -5
    echo "offline build: FAIL: the build or the install reached for the network or the corpus"
    exit 1
fi
installed=$(find "$work/dest" -type f | wc -l)
"$(find "$work/dest" -path '*/bin/spvcond' | head -1)" --version >/dev/null
echo "offline build: $(basename "$tarball") configured, built and installed ($installed files) with tests disabled while apt-get, dpkg, curl and wget fail"
