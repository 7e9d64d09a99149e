#!/usr/bin/env bash
# sshfs over loopback: a private sshd on 127.0.0.1 and one export directory
# mounted several ways, for bench/sshfs/bench.sh and tests/sshfs.rs. See
# bench/README.md, section "sshfs over loopback".
#
# usage: bench/sshfs/sshfs.sh up|down|status DIR
#
#   DIR/export     the exported directory (created if missing; never removed)
#   DIR/warm       sshfs with its default caches
#   DIR/cold       sshfs with every cache off
#   DIR/warm-lat   as warm/, to a second sshd behind a delayed link
#   DIR/cold-lat   as cold/, over the same link
#   DIR/state      keys, configs, pid files and logs of this instance
#
# The delayed link (root only): a network namespace of its own for the
# second sshd, joined to this one by a veth pair with `tc ... netem delay`
# on both ends where the kernel has netem, else by two TUN devices and
# tundelay.c, a delay line that holds each packet; the kernel's TCP runs at
# both ends either way. Without root, or with SSHFS_DELAY_VIA=relay,
# delay_relay.py: a loopback TCP relay that delays each chunk (slower).
#
# environment (up):
#   SSHFS_MOUNTS="warm cold warm-lat cold-lat"   the mounts to make
#   SSHFS_DELAY_MS=0.5   the delay, each way (the -lat mounts)
#   SSHFS_DELAY_VIA=auto  netem, tun or relay (auto: the first that works)
#   SSHFS_EXPORT=DIR     the exported directory (default DIR/export)
#   SSHFS_OPTS=a,b       more -o options for every mount (e.g. allow_other,
#                        default_permissions: other users, permission checks)
#   SSHFS_NO_INSTALL=1   never apt-get install what is missing
#
# Exit status: 0 done; 3 this machine cannot run it (a package, /dev/fuse or
# the right to mount is missing); 1 anything else. `up` and `down` can be
# repeated: `up` keeps what still answers and redoes the rest, `down` stops
# what this DIR started (pid files in DIR/state) and removes no file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ALL_MOUNTS="warm cold warm-lat cold-lat"
# sshfs's own defaults (dir_cache=yes, 20 s; FUSE attr/entry timeouts 1 s)
# for warm; for cold nothing is kept, neither by sshfs nor by the kernel.
WARM_OPTS=""
COLD_OPTS="dir_cache=no,attr_timeout=0,entry_timeout=0,negative_timeout=0"

die() { echo "sshfs.sh: $*" >&2; exit 1; }
unavailable() { echo "sshfs.sh: unavailable: $*" >&2; exit 3; }
say() { echo "sshfs.sh: $*" >&2; }

[[ $# -eq 2 ]] || { echo "usage: $0 up|down|status DIR" >&2; exit 2; }
cmd=$1
mkdir -p "$2"
DIR=$(cd "$2" && pwd -P)
ST=$DIR/state
EXPORT=${SSHFS_EXPORT:-$DIR/export}
PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3

# --- processes and mounts ------------------------------------------------------
# pid_of NAME: the live pid in $ST/NAME.pid whose command line holds $DIR
# (a pid number reused by another program is not ours).
pid_of() {
    local f=$ST/$1.pid pid
    [[ -s $f ]] || return 1
    read -r pid <"$f" || return 1
    [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/cmdline ]] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$DIR" || return 1
    echo "$pid"
}
stop() { # stop NAME: TERM, then KILL after 5 s
    local pid i
    if pid=$(pid_of "$1"); then
        kill "$pid" 2>/dev/null || true
        for ((i = 0; i < 100; i++)); do
            [[ -e /proc/$pid ]] || break
            sleep 0.05
        done
        if [[ -e /proc/$pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
    fi
    rm -f "$ST/$1.pid"
}
# mounted PATH: PATH is a mount point (mountinfo escapes blank, tab,
# newline and backslash in octal).
mounted() {
    local p=$1
    p=${p//\\/\\134}
    p=${p// /\\040}
    p=${p//$'\t'/\\011}
    p=${p//$'\n'/\\012}
    awk -v p="$p" '$5 == p { found = 1 } END { exit !found }' /proc/self/mountinfo
}
answers() { timeout 10 stat -- "$1/." >/dev/null 2>&1 && timeout 20 /bin/ls -f -- "$1" >/dev/null 2>&1; }
wait_port() { # wait_port PORT [ADDRESS PID]: until something listens there (10 s)
    # /proc/net/tcp (of PID's network namespace), not a connection: sshd
    # would log each probe.
    local hex i a b c d
    IFS=. read -r a b c d <<<"${2:-127.0.0.1}"
    hex=$(printf '%02X%02X%02X%02X:%04X' "$d" "$c" "$b" "$a" "$1")
    for ((i = 0; i < 200; i++)); do
        awk -v a="$hex" '$2 == a && $4 == "0A" { found = 1 } END { exit !found }' \
            "/proc/${3:-self}/net/tcp" 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
unmount() { # unmount NAME
    local m=$DIR/$1 pid i
    if mounted "$m"; then
        fusermount3 -u "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null ||
            umount -l "$m" 2>/dev/null || say "could not unmount $m"
    fi
    # sshfs leaves once the kernel lets go of the mount; stop makes sure.
    if pid=$(pid_of "sshfs-$1"); then
        for ((i = 0; i < 100; i++)); do
            [[ -e /proc/$pid ]] || break
            sleep 0.05
        done
    fi
    stop "sshfs-$1"
}

# --- set-up --------------------------------------------------------------------
install_missing() {
    local need=()
    [[ -x /usr/sbin/sshd ]] || need+=(openssh-server)
    command -v sshfs >/dev/null 2>&1 || need+=(sshfs)
    command -v ssh-keygen >/dev/null 2>&1 || need+=(openssh-client)
    command -v fusermount3 >/dev/null 2>&1 || need+=(fuse3)
    [[ ${#need[@]} -eq 0 ]] && return 0
    if [[ ${SSHFS_NO_INSTALL:-0} != 1 && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${need[*]}"
        # bench/apt-install.sh: no question, conffiles included, and no
        # package daemon started (the package's own sshd, on all
        # interfaces, must not run: only the private one below listens).
        "$here/../apt-install.sh" "${need[@]}" || unavailable "apt-get could not install ${need[*]}"
    else
        unavailable "missing ${need[*]} (apt-get install ${need[*]})"
    fi
}

keys_and_configs() { # keys_and_configs NAME PORT ADDRESS: keys, $ST/NAME_config
    mkdir -p "$ST"
    chmod 700 "$ST"
    [[ -s $ST/host_key ]] || ssh-keygen -q -t ed25519 -N '' -C statls-sshfs-host -f "$ST/host_key"
    [[ -s $ST/client_key ]] || ssh-keygen -q -t ed25519 -N '' -C statls-sshfs-client -f "$ST/client_key"
    # The throwaway key may do sftp and nothing else.
    echo "restrict $(cat "$ST/client_key.pub")" >"$ST/authorized_keys"
    echo "statls-sshfs $(cut -d' ' -f1,2 "$ST/host_key.pub")" >"$ST/known_hosts"
    cat >"$ST/$1_config" <<EOF
# private sshd of bench/sshfs/sshfs.sh: one address, one key, sftp only
Port $2
ListenAddress $3
HostKey $ST/host_key
PidFile none
AuthorizedKeysFile $ST/authorized_keys
AllowUsers $(id -un)
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
PermitTunnel no
MaxStartups 64
ForceCommand internal-sftp
Subsystem sftp internal-sftp
LogLevel ERROR
EOF
}

client_config() { # client_config SSHD_PORT [LAT_ADDRESS LAT_PORT]
    cat >"$ST/ssh_config" <<EOF
# ssh client of bench/sshfs/sshfs.sh (sshfs -F): no user or system config
Host statls-sshfs
  Port $1
Host statls-sshfs-lat
  HostName ${2:-127.0.0.1}
  Port ${3:-$1}
Host *
  HostName 127.0.0.1
  User $(id -un)
  IdentityFile $ST/client_key
  IdentitiesOnly yes
  HostKeyAlias statls-sshfs
  UserKnownHostsFile $ST/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  PasswordAuthentication no
  ControlMaster no
  ControlPath none
  ForwardAgent no
  ForwardX11 no
  Compression no
  LogLevel ERROR
EOF
}

start_sshd() {
    local port
    if pid_of sshd >/dev/null && [[ -s $ST/sshd.port ]] && wait_port "$(cat "$ST/sshd.port")"; then
        return 0
    fi
    stop sshd
    # sshd started as root wants its privilege separation directory.
    [[ $(id -u) -ne 0 || -d /run/sshd ]] || { mkdir -p /run/sshd && chmod 755 /run/sshd; }
    for _ in 1 2 3 4 5; do
        port=$(free_port)
        keys_and_configs sshd "$port" 127.0.0.1
        /usr/sbin/sshd -t -f "$ST/sshd_config" 2>"$ST/sshd.log" ||
            die "sshd rejects its configuration: $(cat "$ST/sshd.log")"
        setsid /usr/sbin/sshd -D -f "$ST/sshd_config" -E "$ST/sshd.log" \
            </dev/null >/dev/null 2>&1 &
        echo $! >"$ST/sshd.pid"
        if wait_port "$port"; then
            echo "$port" >"$ST/sshd.port"
            return 0
        fi
        stop sshd # the port was taken in between, or sshd died: try again
    done
    unavailable "sshd did not start: $(cat "$ST/sshd.log")"
}

check_login() { # check_login HOST: an sftp session opens and ends
    local host=$1
    if ! timeout 20 ssh -F "$ST/ssh_config" -s "$host" sftp </dev/null >/dev/null 2>"$ST/login.log"; then
        if grep -qs '^root:!' /etc/shadow && [[ $(id -u) -eq 0 ]]; then
            unavailable "ssh to the private sshd failed: root's account is locked (password '!'), which sshd refuses without PAM"
        fi
        unavailable "ssh to the private sshd failed: $(cat "$ST/login.log"); sshd says: $(cat "$ST/sshd.log")"
    fi
}

# --- the delayed link ------------------------------------------------------------
# This DIR's namespace, devices and addresses (from a hash of DIR: two
# instances keep apart).
lat_names() {
    local h
    h=$(printf '%s' "$DIR" | md5sum | cut -c1-8)
    NS=statls-sshfs-$h DEV_A=ssf${h}a DEV_B=ssf${h}b NET=10.253.$((16#${h:0:2}))
}
link_down() {
    lat_names
    stop sshd-lat
    stop tundelay # its TUN devices go with it
    ip link del "$DEV_A" 2>/dev/null || true # a veth pair: both ends
    if [[ -e /run/netns/$NS ]]; then ip netns del "$NS" 2>/dev/null || true; fi
}
link_netem() { # link_netem DELAY_MS: a veth pair, netem on each end
    ip link add "$DEV_A" type veth peer name "$DEV_B" netns "$NS" 2>/dev/null || return 1
    if tc qdisc add dev "$DEV_A" root netem delay "${1}ms" 2>/dev/null &&
        ip -n "$NS" link set "$DEV_B" up &&
        ip netns exec "$NS" tc qdisc add dev "$DEV_B" root netem delay "${1}ms" 2>/dev/null; then
        return 0
    fi
    ip link del "$DEV_A" 2>/dev/null || true
    return 1
}
link_tun() { # link_tun DELAY_MS: two TUN devices, tundelay between them
    local bin=$ST/tundelay i us
    [[ -c /dev/net/tun ]] || return 1
    if [[ ! -x $bin || $here/tundelay.c -nt $bin ]]; then
        gcc -O2 -o "$bin" "$here/tundelay.c" 2>"$ST/tundelay.log" || return 1
    fi
    us=$(awk -v ms="$1" 'BEGIN { printf "%d", ms * 1000 + 0.5 }')
    rm -f "$ST/tundelay.ready"
    setsid "$bin" "$us" "/run/netns/$NS" "$DEV_A" "$DEV_B" "$ST/tundelay.ready" \
        </dev/null >"$ST/tundelay.log" 2>&1 &
    echo $! >"$ST/tundelay.pid"
    for ((i = 0; i < 100; i++)); do
        [[ -e $ST/tundelay.ready ]] && return 0
        kill -0 "$!" 2>/dev/null || break
        sleep 0.05
    done
    stop tundelay
    return 1
}
start_sshd_lat() { # the second sshd, in the namespace, on port 22 of its own
    keys_and_configs sshd-lat 22 "$NET.2"
    setsid ip netns exec "$NS" /usr/sbin/sshd -D -f "$ST/sshd-lat_config" -E "$ST/sshd-lat.log" \
        </dev/null >/dev/null 2>&1 &
    echo $! >"$ST/sshd-lat.pid"
    wait_port 22 "$NET.2" "$!" || die "sshd in $NS did not start: $(cat "$ST/sshd-lat.log")"
}
start_relay() { # start_relay SSHD_PORT
    local i
    setsid "$PY" "$here/delay_relay.py" "$1" "${SSHFS_DELAY_MS:-0.5}" "$ST/relay.port" \
        </dev/null >"$ST/relay.log" 2>&1 &
    echo $! >"$ST/relay.pid"
    for ((i = 0; i < 200; i++)); do
        [[ -s $ST/relay.port ]] && break
        sleep 0.05
    done
    if ! [[ -s $ST/relay.port ]] || ! wait_port "$(cat "$ST/relay.port")"; then
        die "the delay relay did not start (see $ST/relay.log)"
    fi
}
lat_answers() { # the link of $ST/lat.conf is still there
    local via pid
    read -r _ via _ <"$ST/lat.conf" 2>/dev/null || return 1
    case $via in
    relay) pid_of relay >/dev/null && wait_port "$(cat "$ST/relay.port")" ;;
    netem | tun)
        [[ $via == netem ]] || pid_of tundelay >/dev/null || return 1
        pid=$(pid_of sshd-lat) && wait_port 22 "$NET.2" "$pid"
        ;;
    *) return 1 ;;
    esac
}
# start_lat SSHD_PORT: the delayed way to an sshd, as "VIA ADDRESS PORT" in $ST/lat.addr
start_lat() {
    local delay=${SSHFS_DELAY_MS:-0.5} via=${SSHFS_DELAY_VIA:-auto} used=
    lat_names
    if [[ $(cat "$ST/lat.want" 2>/dev/null) == "$delay $via $1" ]] && lat_answers; then
        return 0
    fi
    # Another delay, way or sshd: the mounts over the old link go too.
    unmount warm-lat
    unmount cold-lat
    link_down
    stop relay
    rm -f "$ST/lat.conf" "$ST/lat.want" "$ST/relay.port"
    case $via in auto | netem | tun | relay) ;; *) die "SSHFS_DELAY_VIA: one of auto, netem, tun, relay" ;; esac
    if [[ $via != relay && $(id -u) -eq 0 ]] && command -v ip >/dev/null 2>&1 &&
        ip netns add "$NS" 2>/dev/null; then
        ip -n "$NS" link set lo up
        if [[ $via != tun ]] && link_netem "$delay"; then
            used=netem
        elif [[ $via != netem ]] && link_tun "$delay"; then
            used=tun
        fi
        if [[ -n $used ]]; then
            ip addr add "$NET.1" peer "$NET.2" dev "$DEV_A"
            ip link set "$DEV_A" up
            ip -n "$NS" addr add "$NET.2" peer "$NET.1" dev "$DEV_B"
            ip -n "$NS" link set "$DEV_B" up
            start_sshd_lat
            echo "$delay $used $NET.2 22" >"$ST/lat.conf"
        else
            link_down
        fi
    fi
    if [[ -z $used ]]; then
        [[ $via == auto || $via == relay ]] ||
            unavailable "no delayed link by $via here (it needs root and ip netns; netem a kernel with sch_netem, tun gcc and /dev/net/tun; see $ST/tundelay.log)"
        start_relay "$1"
        echo "$delay relay 127.0.0.1 $(cat "$ST/relay.port")" >"$ST/lat.conf"
    fi
    echo "$delay $via $1" >"$ST/lat.want"
}

mount_one() { # mount_one NAME
    local name=$1 m=$DIR/$1 host=statls-sshfs opts i pid
    if mounted "$m"; then
        if answers "$m" && [[ $(cat "$ST/sshfs-$name.conf" 2>/dev/null) == "$(mount_conf "$name")" ]]; then
            return 0
        fi
        unmount "$name"
    fi
    stop "sshfs-$name"
    mkdir -p "$m"
    case $name in
    warm | warm-lat) opts=$WARM_OPTS ;;
    cold | cold-lat) opts=$COLD_OPTS ;;
    *) die "unknown mount '$name' (one of: $ALL_MOUNTS)" ;;
    esac
    [[ $name == *-lat ]] && host=statls-sshfs-lat
    # Debian's sshfs 3.7.3-1.2 refuses symlink targets that are absolute or
    # hold `..` unless told otherwise; this server is ourselves.
    [[ $(sshfs -h 2>&1) == *no_contain_symlinks* ]] && opts=${opts:+$opts,}no_contain_symlinks
    [[ -n ${SSHFS_OPTS:-} ]] && opts=${opts:+$opts,}$SSHFS_OPTS
    # -f, in the background: sshfs's pid is ours to stop.
    setsid sshfs -f -F "$ST/ssh_config" "$host:$EXPORT" "$m" ${opts:+-o "$opts"} \
        -o "fsname=statls-sshfs-$name,subtype=sshfs" \
        </dev/null >"$ST/sshfs-$name.log" 2>&1 &
    pid=$!
    echo "$pid" >"$ST/sshfs-$name.pid"
    for ((i = 0; i < 300; i++)); do
        mounted "$m" && answers "$m" && break
        if ! kill -0 "$pid" 2>/dev/null; then
            if grep -qiE 'fuse: device not found|/dev/fuse|Operation not permitted|fusermount' "$ST/sshfs-$name.log"; then
                unavailable "cannot mount FUSE here: $(cat "$ST/sshfs-$name.log")"
            fi
            die "sshfs for $name exited: $(cat "$ST/sshfs-$name.log")"
        fi
        sleep 0.05
    done
    if ! mounted "$m" || ! answers "$m"; then die "$m does not answer (see $ST/sshfs-$name.log)"; fi
    mount_conf "$name" >"$ST/sshfs-$name.conf"
    printf '%-9s %s  -o %s\n' "$name" "$m" "${opts:-(defaults)}" >&2
}
# What a mount was made with: a change remounts it.
mount_conf() {
    echo "$1 ${SSHFS_OPTS:-} $EXPORT $(cat "$ST/sshd.port")"
    [[ $1 != *-lat ]] || cat "$ST/lat.conf"
}

up() {
    local mounts=${SSHFS_MOUNTS:-$ALL_MOUNTS} m port lat=0 addr lport
    install_missing
    [[ -c /dev/fuse ]] || unavailable "/dev/fuse is missing (modprobe fuse?)"
    [[ $mounts == *-lat* ]] && lat=1
    mkdir -p "$EXPORT" "$ST"
    start_sshd
    port=$(cat "$ST/sshd.port")
    client_config "$port"
    if [[ $lat == 1 ]]; then
        start_lat "$port"
        read -r _ _ addr lport <"$ST/lat.conf"
        client_config "$port" "$addr" "$lport"
    fi
    check_login statls-sshfs
    for m in $mounts; do
        mount_one "$m"
    done
}

down() {
    local m
    for m in $ALL_MOUNTS; do unmount "$m"; done
    link_down
    stop relay
    stop sshd
    rm -f "$ST/sshd.port" "$ST/relay.port" "$ST/lat.conf" "$ST/lat.want" "$ST"/sshfs-*.conf
}

status() {
    local m ok=0 pid delay via addr port
    if pid=$(pid_of sshd); then
        echo "sshd      pid $pid, 127.0.0.1:$(cat "$ST/sshd.port" 2>/dev/null)"
    else
        echo "sshd      not running"
        ok=1
    fi
    if [[ -s $ST/lat.conf ]]; then
        lat_names
        read -r delay via addr port <"$ST/lat.conf"
        echo "link      $via, $delay ms each way, to $addr:$port$([[ $via == relay ]] || echo " in netns $NS")$(lat_answers || echo ", NOT answering")"
    fi
    for m in $ALL_MOUNTS; do
        if ! mounted "$DIR/$m"; then
            continue
        elif answers "$DIR/$m"; then
            echo "$(printf '%-9s' "$m") mounted, answers ($DIR/$m)"
        else
            echo "$(printf '%-9s' "$m") mounted, NOT answering ($DIR/$m)"
            ok=1
        fi
    done
    return $ok
}

case $cmd in
up) up ;;
down) down ;;
status) status ;;
*) echo "usage: $0 up|down|status DIR" >&2; exit 2 ;;
esac
