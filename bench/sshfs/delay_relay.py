#!/usr/bin/env python3
"""Loopback TCP relay that delays every chunk by DELAY_MS, each way.

usage: delay_relay.py TARGET_PORT DELAY_MS PORT_FILE

Listens on 127.0.0.1 (a free port, written to PORT_FILE once it accepts)
and forwards each connection to 127.0.0.1:TARGET_PORT. A chunk read on one
side is written to the other DELAY_MS after it arrived, in order, without
waiting for the chunks behind it: the delay adds latency, not a bandwidth
limit. Threads and time.sleep (nanosleep), not asyncio: an event loop's
timers round sub-millisecond waits up to whole milliseconds.
"""
import collections
import os
import socket
import sys
import threading
import time


def pump(src, dst, delay):
    queue = collections.deque()
    ready = threading.Condition()

    def reader():
        while True:
            try:
                data = src.recv(1 << 16)
            except OSError:
                data = b""
            with ready:
                queue.append((time.monotonic() + delay, data))
                ready.notify()
            if not data:
                return

    def writer():
        while True:
            with ready:
                while not queue:
                    ready.wait()
                due, data = queue.popleft()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                if not data:
                    dst.shutdown(socket.SHUT_WR)
                    return
                dst.sendall(data)
            except OSError:
                return

    threading.Thread(target=reader, daemon=True).start()
    w = threading.Thread(target=writer, daemon=True)
    w.start()
    return w


def relay(client, target, delay):
    try:
        server = socket.create_connection(("127.0.0.1", target))
    except OSError:
        client.close()
        return
    for s in (client, server):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    writers = [pump(client, server, delay), pump(server, client, delay)]
    for w in writers:
        w.join()
    client.close()
    server.close()


def main():
    target, delay, port_file = int(sys.argv[1]), float(sys.argv[2]) / 1000, sys.argv[3]
    lsn = socket.socket()
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind(("127.0.0.1", 0))
    lsn.listen(16)
    with open(port_file + ".tmp", "w") as f:
        f.write(f"{lsn.getsockname()[1]}\n")
    os.rename(port_file + ".tmp", port_file)
    while True:
        client, _ = lsn.accept()
        threading.Thread(target=relay, args=(client, target, delay), daemon=True).start()


if __name__ == "__main__":
    main()
