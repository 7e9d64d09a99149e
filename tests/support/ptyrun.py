"""Runs a command on a new pseudo-terminal that is its controlling
terminal (raw mode: the bytes are exactly what it wrote) and signals it
mid-output: once its first output arrived, the terminal is not read for
DELAY_MS (so that a long output fills it and the writer blocks), then the
signal is sent and the output drained to the end.

usage: ptyrun.py OUT_FILE DELAY_MS kill SIGNUM -- CMD...
       ptyrun.py OUT_FILE DELAY_MS stop -- CMD...
       ptyrun.py OUT_FILE DELAY_MS timed SIGNUM -- CMD...

timed: as kill, but DELAY_MS from the start, whether or not anything was
written (the terminal is read all along).

kill: prints "<ms from the signal to the child's death> <how it ended>"
(how: "sig N" or "exit N").
stop: sends SIGTSTP, waits until the child is stopped, writes what it had
written so far to OUT_FILE.stop, sends SIGCONT and waits for the end;
prints "stopped <how it ended>".
All output goes to OUT_FILE.
"""
import os, pty, select, signal, sys, time, tty

out_file, delay_ms, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rest = sys.argv[4:]
signum = None
if mode in ("kill", "timed"):
    signum, rest = int(rest[0]), rest[1:]
assert rest[0] == "--"
cmd = rest[1:]

pid, fd = pty.fork()
if pid == 0:
    tty.setraw(0)
    os.execv(cmd[0], cmd)

buf = bytearray()

def drain(timeout):
    r, _, _ = select.select([fd], [], [], timeout)
    if r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        buf.extend(data)
    return True

def state():
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None

def how(status):
    if os.WIFSIGNALED(status):
        return "sig %d" % os.WTERMSIG(status)
    return "exit %d" % os.WEXITSTATUS(status)

if mode == "timed":
    start = time.monotonic()
    while time.monotonic() - start < delay_ms / 1000.0:
        drain(0.002)
    mode = "kill"
else:
    deadline = time.monotonic() + 20
    while not buf and time.monotonic() < deadline:
        if not drain(0.005):
            break
    time.sleep(delay_ms / 1000.0)

if mode == "kill":
    sent = time.monotonic()
    os.kill(pid, signum)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            died = time.monotonic()
            break
        drain(0.001)
    while drain(0.05):
        pass
    print("%d %s" % ((died - sent) * 1000, how(status)))
else:
    os.kill(pid, signal.SIGTSTP)
    deadline = time.monotonic() + 10
    while state() != "T" and time.monotonic() < deadline:
        drain(0.005)
    settle = time.monotonic() + 0.2
    while time.monotonic() < settle:
        drain(0.01)
    with open(out_file + ".stop", "wb") as f:
        f.write(buf)
    os.kill(pid, signal.SIGCONT)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        drain(0.01)
    while drain(0.05):
        pass
    print("stopped %s" % how(status))

with open(out_file, "wb") as f:
    f.write(buf)
