#!/usr/bin/env bash
# versions-report.sh [SEEDS...]  — how close statls is to each GNU ls version
#
# For each of GNU ls 8.32, 9.1, 9.7 and 9.10, on random command lines
# (tests/support/randcases.py, COUNT lines per seed, default 500; seeds
# default 101 102 103, which tests/versions.rs does not use), prints
# identical/total for
#   (a) GNU 9.1 vs GNU V: what a user of V sees change with an ls that is
#       9.1 (the host's /bin/ls, relinked onto V's C library)
#   (b) statls (target/release/ls, STATLS_GNU_VERSION=V, on V's C library)
#       vs GNU V
# in the locales of tests/versions.rs that are generated here.  The
# references come from tests/support/gnu-refs.sh (cached in target/gnu-refs);
# lsdiff's reports, with every differing case, are kept in
# target/gnu-refs/report/V-{a,b}.txt.  Needs root (the fixture) and a
# release build.  The defaults take about 8 minutes on two busy cores
# (COUNT=100 for a quick look).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."
ROOT=$PWD
COUNT=${COUNT:-500}
SEEDS=("$@")
[ ${#SEEDS[@]} -gt 0 ] || SEEDS=(101 102 103)
COMPAT=$ROOT/../shared/compat
LSDIFF=$COMPAT/lsdiff.sh
REFS=$ROOT/target/gnu-refs
STATLS=$ROOT/target/release/ls
[ -x "$STATLS" ] || { echo "versions-report: build first: cargo build --release" >&2; exit 2; }
[ -r "$LSDIFF" ] || { echo "versions-report: no $LSDIFF" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "versions-report: the fixture needs root" >&2; exit 2; }

locales=()
for l in C.UTF-8:C.utf8 en_US.UTF-8:en_US.utf8 de_DE.UTF-8:de_DE.utf8 fr_FR.UTF-8:fr_FR.utf8 \
         ja_JP.UTF-8:ja_JP.utf8 zh_CN.UTF-8:zh_CN.utf8 ru_RU.UTF-8:ru_RU.utf8 \
         de_DE.ISO-8859-1:de_DE.iso88591 ru_RU.KOI8-R:ru_RU.koi8r zh_CN.GB18030:zh_CN.gb18030; do
  locale -a | grep -qx "${l#*:}" && locales+=("${l%%:*}")
done
LOCALES=$(IFS=,; echo "${locales[*]}")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/versions-report.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
mkdir -p "$REFS/report"
for s in "${SEEDS[@]}"; do
  python3 tests/support/randcases.py --seed "$s" --count "$COUNT" --locales "$LOCALES"
done >"$WORK/cases.txt"

# identical REPORT — "P/N  xx.x %" from lsdiff's last line.
identical() {
  sed -n 's|^lsdiff: \([0-9]*\)/\([0-9]*\) identical$|\1 \2|p' "$1" |
    awk '{ printf "%d/%d  %5.1f %%", $1, $2, $2 ? 100 * $1 / $2 : 0 }'
}

echo "versions-report: seeds ${SEEDS[*]}, $COUNT lines each, LC_ALL in C,$LOCALES"
printf '%-8s %-24s %s\n' version '(a) GNU 9.1 vs GNU V' '(b) statls(V) vs GNU V'
for v in 8.32 9.1 9.7 9.10; do
  if ! ref=$(bash tests/support/gnu-refs.sh "$v" "$REFS/$v"); then
    printf '%-8s %s\n' "$v" "no reference (see above)"
    continue
  fi
  bash tests/support/gnu-refs.sh --patch "$v" "$REFS/$v" /bin/ls "$WORK/gnu-9.1-$v" >/dev/null
  bash tests/support/gnu-refs.sh --patch "$v" "$REFS/$v" "$STATLS" "$WORK/statls-$v" >/dev/null
  printf '#!/bin/bash\nexport STATLS_GNU_VERSION=%s\nexec -a ls %q "$@"\n' "$v" "$WORK/statls-$v" >"$WORK/ls-$v"
  chmod 755 "$WORK/ls-$v"
  cases=$WORK/cases.txt
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups -- "$ref" --version >/dev/null 2>&1; then
    echo "versions-report: nobody cannot run $ref: cases run as another user left out" >&2
    grep -v 'AS=' "$WORK/cases.txt" >"$WORK/cases-$v.txt"
    cases=$WORK/cases-$v.txt
  fi
  bash "$COMPAT/mkfixtures.sh" "$WORK/fx" >/dev/null 2>&1
  bash "$LSDIFF" -v "$cases" "$WORK/gnu-9.1-$v" "$ref" "$WORK/fx" >"$REFS/report/$v-a.txt" || true
  bash "$LSDIFF" -v "$cases" "$ref" "$WORK/ls-$v" "$WORK/fx" >"$REFS/report/$v-b.txt" || true
  printf '%-8s %-24s %s\n' "$v" "$(identical "$REFS/report/$v-a.txt")" "$(identical "$REFS/report/$v-b.txt")"
done
