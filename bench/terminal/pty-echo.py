#!/usr/bin/env python3
"""The floor under the key echo: a character written to a local PTY until bash's readline
echoes it back, with no server, WebSocket, emulation or paint in between. Same keys and
spacing as bench-terminal-roundtrip (1000 keys, 20 ms apart, the line cleared every 100)."""
import os
import pty
import select
import time

KEYS = 1000
GAP_S = 0.02


def drain(fd, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.01)
        if ready:
            os.read(fd, 65536)


def main():
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, PS1='$ ', TERM='xterm-256color')
        os.execvpe('bash', ['bash', '--norc', '--noprofile', '-i'], env)
    drain(fd, 1.0)
    ms = []
    for i in range(KEYS):
        if i % 100 == 0:
            os.write(fd, b'\x15')
            drain(fd, GAP_S)
        ch = bytes([ord('a') + i % 26])
        start = time.perf_counter_ns()
        os.write(fd, ch)
        seen = b''
        while ch not in seen:
            ready, _, _ = select.select([fd], [], [], 5)
            if not ready:
                break
            seen += os.read(fd, 4096)
        ms.append((time.perf_counter_ns() - start) / 1e6)
        time.sleep(GAP_S)
    os.kill(pid, 9)
    ms.sort()
    print('floor: a local PTY, bash echoes the key (no server, no view): median %.2f ms  '
          'p99 %.2f ms  min %.2f ms' % (ms[len(ms) // 2], ms[int(0.99 * (len(ms) - 1))], ms[0]))


if __name__ == '__main__':
    main()
