#!/usr/bin/env python3
"""Redis CPU per lock+unlock pair of the engine's scripts, for one or more checkouts of this project.

For each checkout given, starts a fresh redis-server (from PATH) on a free port, loads that checkout's
lock.lua and unlock.lua (with release_answer.lua in front, as the engine sends it), and pipes PAIRS
lock+unlock pairs through redis-cli --pipe: 16 lock names in turn, a new hold id each time, as the
uncontended benchmark's 16 threads do. It reports Redis's CPU time (used_cpu_user + used_cpu_sys)
per pair, counting the time Redis spends afterwards expiring what the releases left (it waits until
only the answer books, at most one per name, are left), and EVALSHA's usec_per_call. The client is
not measured: this isolates what the scripts cost the server. Each checkout is measured ROUNDS times,
in turns; compare the lowest values.

Usage: script-cost.py CHECKOUT [CHECKOUT ...]   (e.g. a worktree of an older commit, and .)
"""
import os
import socket
import subprocess
import sys
import time

PAIRS = 200_000
NAMES = 16
ROUNDS = 3
ANSWER_TTL_MS = 3_000  # short, so that the wait for expiry stays short
SCRIPTS = 'lock-core/src/main/resources/io/distlock/core/scripts'


def resp(*args):
    out = [b'*%d\r\n' % len(args)]
    for arg in args:
        arg = arg if isinstance(arg, bytes) else str(arg).encode()
        out.append(b'$%d\r\n%s\r\n' % (len(arg), arg))
    return b''.join(out)


def cli(port, *args):
    return subprocess.run(['redis-cli', '-p', str(port), *args], capture_output=True, text=True).stdout.strip()


def cpu(port):
    info = dict(line.split(':', 1) for line in cli(port, 'info', 'cpu').splitlines() if ':' in line)
    return float(info['used_cpu_user']) + float(info['used_cpu_sys'])


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def load(checkout):
    def read(name):
        with open(os.path.join(checkout, SCRIPTS, name)) as f:
            return f.read()
    unlock = read('unlock.lua')
    if not os.path.exists(os.path.join(checkout, SCRIPTS, 'release_answer.lua')):
        return read('lock.lua'), unlock, 'none'  # before exactly-once answers (b7002ea)
    # Today's unlock.lua keeps answers in one book per lock (KEYS[4] = the previous book) and takes the
    # acknowledged hold ids in ARGV[6]; earlier ones kept a key per hold.
    unlock = read('release_answer.lua') + unlock
    return read('lock.lua'), unlock, 'book' if 'KEYS[4]' in unlock else 'key'


def commands(lock_sha, unlock_sha, answers):
    out = []
    for i in range(PAIRS):
        name = 'distlock:{k%d}' % (i % NAMES)
        holder, hold = 'client:%d' % (i % NAMES), 'c.%d' % i
        out.append(resp('EVALSHA', lock_sha, 1, name, 30_000, holder, hold, 0, 'tag'))
        if answers == 'book':
            read_before = 'c.%d' % (i - NAMES) if i >= NAMES else ''  # the name's previous release
            out.append(resp('EVALSHA', unlock_sha, 4, name, name + ':ch', name + ':released',
                            name + ':released:before', holder, hold, 'x', 'publish', ANSWER_TTL_MS, read_before))
        elif answers == 'none':
            out.append(resp('EVALSHA', unlock_sha, 2, name, name + ':ch', holder, hold, 'x', 'publish'))
        else:
            out.append(resp('EVALSHA', unlock_sha, 3, name, name + ':ch', name + ':released:' + hold, holder, hold,
                            'x', 'publish', ANSWER_TTL_MS))
    return b''.join(out)


def measure(checkout):
    lock, unlock, answers = load(checkout)
    port = free_port()
    server = subprocess.Popen(['redis-server', '--port', str(port), '--save', '', '--appendonly', 'no'],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if cli(port, 'ping') == 'PONG':
                break
            time.sleep(0.05)
        data = commands(cli(port, 'script', 'load', lock), cli(port, 'script', 'load', unlock), answers)
        start = cpu(port)
        piped = subprocess.run(['redis-cli', '-p', str(port), '--pipe'], input=data, capture_output=True)
        deadline = time.time() + 30
        while int(cli(port, 'dbsize')) > NAMES and time.time() < deadline:
            time.sleep(0.2)
        used = cpu(port) - start
        stats = [line for line in cli(port, 'info', 'commandstats').splitlines() if 'evalsha' in line][0]
        per_call = stats.split('usec_per_call=')[1].split(',')[0]
        return used / PAIRS * 1e6, per_call, piped.stdout.decode().strip().splitlines()[-1]
    finally:
        server.terminate()
        server.wait()


def main(checkouts):
    if not checkouts:
        sys.exit(__doc__)
    for _ in range(ROUNDS):
        for checkout in checkouts:
            per_pair, per_call, summary = measure(checkout)
            print('%-40s Redis CPU %.2f us/pair, EVALSHA %s us/call (%s)' % (checkout, per_pair, per_call, summary))


if __name__ == '__main__':
    main(sys.argv[1:])
