#!/usr/bin/env bash
# Builds the release archive: target/statls-VERSION-ARCH-linux.tar.gz, laid
# out as the Debian package (the `assets` of [package.metadata.deb] in
# Cargo.toml, read from there), rooted at /. Install it with
#   sudo tar --no-overwrite-dir -xzf statls-VERSION-ARCH-linux.tar.gz -C /
# and opt in as the README's "Install" section says.
#
# usage: packaging/release-archive.sh   (builds target/release/ls if missing)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
name="statls-$version-$(uname -m)-linux"
[[ -x target/release/ls ]] || cargo build --release --locked
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The asset lines: ["source", "destination", "mode"], in the deb section.
awk '/^\[package\.metadata\.deb\]/ { on = 1; next } /^\[/ { on = 0 } on && /^ *\["/' Cargo.toml |
    while IFS='"' read -r _ src _ dest _ mode _; do
        install -D -m "$mode" "$src" "$stage/$dest"
    done
gzip -9n "$stage"/usr/share/man/man1/*.1 "$stage"/usr/lib/statls/share/man/man1/*.1
tar --owner=0 --group=0 --sort=name -czf "target/$name.tar.gz" -C "$stage" usr
echo "target/$name.tar.gz"
tar -tzf "target/$name.tar.gz" | grep -v '/$' | sed 's/^/  \//'
