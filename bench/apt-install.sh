#!/usr/bin/env bash
# bench/apt-install.sh [--no-recommends] PACKAGE...
#
# Installs Debian packages without ever stopping at a question: no debconf
# prompt (DEBIAN_FRONTEND=noninteractive), no conffile prompt (dpkg keeps a
# locally changed /etc file and takes the package's default for a new one:
# --force-confdef --force-confold; without them a machine whose /etc/sudoers
# differs from the sudo package's stops at "end of file on stdin at conffile
# prompt"), and no package daemon started on the host (a policy-rc.d that
# says 101, unless the machine has one of its own, removed afterwards).
# When the first attempt fails, the package lists are refreshed and it is
# tried once more; when that fails too, the log's last lines go to stderr
# (the log may live in a directory that is gone when the message is read).
#
# Exit status: 0 installed; 1 apt-get failed; 4 not root or no apt-get.
set -uo pipefail

opts=()
if [[ ${1:-} == --no-recommends ]]; then
    opts+=(--no-install-recommends)
    shift
fi
[[ $# -gt 0 ]] || { echo "usage: $0 [--no-recommends] PACKAGE..." >&2; exit 2; }
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "apt-install: need root and apt-get to install $*" >&2
    exit 4
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp /tmp/apt-install.XXXXXX.log)
policy=/usr/sbin/policy-rc.d
ours=0
if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\n# bench/apt-install.sh, during apt-get install\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    ours=1
fi
install() {
    apt-get install -y -q "${opts[@]}" \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        "$@" </dev/null >>"$log" 2>&1
}
rc=0
install "$@" || { apt-get update -q </dev/null >>"$log" 2>&1; install "$@"; } || rc=1
[[ $ours == 0 ]] || rm -f "$policy"
if [[ $rc != 0 ]]; then
    echo "apt-install: apt-get install $* failed; the last lines of its log ($log):" >&2
    tail -n 25 "$log" | sed 's/^/    /' >&2
    exit 1
fi
rm -f "$log"
