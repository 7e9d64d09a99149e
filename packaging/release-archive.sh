#!/usr/bin/env bash
# Builds the release files into target/dist/ (or $CARGO_TARGET_DIR/dist/),
# for each architecture (x86_64 and aarch64 unless named):
#   statls-VERSION-ARCH-linux.tar.gz   rooted at /, the Debian package's layout
#   statls_VERSION-1_DEBARCH.deb       (amd64, arm64)
#   statls-VERSION-1.ARCH.rpm          (x86_64, aarch64)
# The layouts are the `assets` of [package.metadata.deb] and
# [package.metadata.generate-rpm] in Cargo.toml (packaging/pkgmeta.py reads
# them): /usr/lib/statls/bin/ls, man pages, completions; never /bin/ls or
# /usr/bin/ls. Install the archive with
#   sudo tar --no-overwrite-dir -xzf statls-VERSION-ARCH-linux.tar.gz -C /
# and opt in as the README's "Install" section says.
#
# The binaries run on glibc 2.17 or later (Linux 3.10 or later): they are
# linked by zig against glibc 2.17's symbols (cargo-zigbuild, target suffix
# .2.17), need no symbol newer and no shared library outside glibc, which
# is checked here before anything is packaged.
#
# Needs: cargo-zigbuild and zig (PyPI: `pip install ziglang cargo-zigbuild`),
# the Rust standard library of each target (`rustup target add
# aarch64-unknown-linux-gnu`), python3 (3.11+), dpkg-deb, rpmbuild (Debian:
# `apt-get install rpm`), objdump and readelf (binutils).
#
# usage: packaging/release-archive.sh [x86_64|aarch64]...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

floor=2.17
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 aarch64)
target_dir=${CARGO_TARGET_DIR:-target}
dist="$target_dir/dist"
version=$(python3 packaging/pkgmeta.py version)

for tool in cargo-zigbuild python3 dpkg-deb rpmbuild objdump readelf; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "release-archive.sh: $tool is not installed (see the comment at the top)" >&2
        exit 1
    }
done

# The newest GLIBC_ symbol version BINARY asks for; fails on a shared
# library outside glibc, or a newer version than the floor.
glibc_needed() {
    local bin=$1 lib newest
    for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        case $lib in
            libc.so.6 | libm.so.6 | libpthread.so.0 | libdl.so.2 | librt.so.1) ;;
            *) echo "release-archive.sh: $bin needs $lib, not part of glibc" >&2; return 1 ;;
        esac
    done
    newest=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
    if [ "$(printf '%s\n%s\n' "$newest" "$floor" | sort -V | tail -1)" != "$floor" ]; then
        echo "release-archive.sh: $bin needs GLIBC_$newest, newer than $floor:" >&2
        objdump -T "$bin" | grep "GLIBC_$newest" >&2
        return 1
    fi
    echo "$newest"
}

mkdir -p "$dist"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for arch in "${arches[@]}"; do
    case $arch in
        x86_64) debarch=amd64 ;;
        aarch64) debarch=arm64 ;;
        *) echo "release-archive.sh: unknown architecture $arch" >&2; exit 2 ;;
    esac
    triple=$arch-unknown-linux-gnu
    start=$SECONDS
    cargo zigbuild --release --locked --quiet --target "$triple.$floor"
    bin="$target_dir/$triple/release/ls"
    newest=$(glibc_needed "$bin")
    echo "$arch: built in $((SECONDS - start)) s; needs GLIBC_$newest at most"

    # The archive and the .deb: the Debian layout.
    tree="$work/$arch-deb"
    python3 packaging/pkgmeta.py stage deb "$bin" "$tree"
    name="statls-$version-$arch-linux"
    tar --owner=0 --group=0 --sort=name -czf "$dist/$name.tar.gz" -C "$tree" usr
    mkdir -p "$tree/DEBIAN"
    python3 packaging/pkgmeta.py control "$debarch" "libc6 (>= $newest)" "$tree" >"$tree/DEBIAN/control"
    (cd "$tree" && find usr -type f | sort | xargs md5sum >DEBIAN/md5sums)
    dpkg-deb --root-owner-group -Zxz --build "$tree" "$dist/statls_$version-1_$debarch.deb" >/dev/null

    # The .rpm: the RPM layout, by rpmbuild in a private top directory.
    tree="$work/$arch-rpm"
    python3 packaging/pkgmeta.py stage rpm "$bin" "$tree"
    python3 packaging/pkgmeta.py spec "$arch" "$tree" >"$work/statls.spec"
    rpmbuild -bb --quiet --target "$arch-linux" --define "_topdir $work/rpmbuild" \
        "$work/statls.spec" >"$work/rpmbuild.log" 2>&1 || {
        cat "$work/rpmbuild.log" >&2
        exit 1
    }
    mv "$work/rpmbuild/RPMS/$arch/statls-$version-1.$arch.rpm" "$dist/"
done

ls -l "$dist"
