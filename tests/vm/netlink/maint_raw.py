#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Raw generic netlink cases of LOOM_CMD_MAINT that loomctl cannot make.

A malformed request: prints the kernel's answer as "errno=N msg=TEXT"
(errno 0: accepted).  The others:

  listen GROUP SECONDS   join the loom family's multicast group GROUP and
                         print "join: errno=N" (0: joined), then one line
                         "event CMD value=V" per message for SECONDS
  signal_wait            a read over nonexistent port 7 (1500 ms, no retry)
                         with a SIGALRM handler armed to fire 300 ms into
                         the wait: prints the answer and "signals=N", or
                         "no answer" when none came within 10 s
  killed_wait            a child sends that read on a socket it shares with
                         this process and is killed (SIGKILL) 300 ms into
                         the wait: prints the answer this process reads
  killed_queued          as killed_wait, but the child's request queues
                         behind another one (3000 ms over port 7) and is
                         killed before it goes out

usage: maint_raw.py HEADER CASE [ARGS]
  HEADER  include/uapi/linux/loom_netlink.h (enum values are read from it)
  CASE    bad_op | no_addr | write_no_value | no_route | reply_attr |
          timeout_zero | listen | signal_wait | killed_wait | killed_queued
"""
import os
import signal
import socket
import struct
import sys
import time

from genl_raw import (NETLINK_ADD_MEMBERSHIP, NETLINK_GENERIC, NLA_F_NESTED, SOL_NETLINK,
                      attr, attrs_of, enum_values, open_family, print_answer, receive, request,
                      send)


def main():
    text = open(sys.argv[1]).read()
    case = sys.argv[2]
    cmds = enum_values(text, "loom_nl_cmd")
    top = enum_values(text, "loom_nl_attr")
    mnt = enum_values(text, "loom_nl_maint_attr")

    sock, family, groups = open_family()
    if family is None:
        print("errno=-1 msg=no loom family")
        return 1

    if case in ("listen", "signal_wait", "killed_wait", "killed_queued"):
        return special(case, sock, family, groups, cmds, top, mnt, sys.argv[3:])

    u8 = lambda k, v: attr(mnt[k], struct.pack("=B", v))
    u32 = lambda k, v: attr(mnt[k], struct.pack("=I", v))
    op_read, op_write = 1, 2
    parts = {
        "bad_op": [u8("LOOM_ATTR_MAINT_OP", 7), attr(mnt["LOOM_ATTR_MAINT_ROUTE"], b"\0"),
                   u32("LOOM_ATTR_MAINT_ADDR", 0x90)],
        "no_addr": [u8("LOOM_ATTR_MAINT_OP", op_read),
                    attr(mnt["LOOM_ATTR_MAINT_ROUTE"], b"\0")],
        "write_no_value": [u8("LOOM_ATTR_MAINT_OP", op_write),
                           attr(mnt["LOOM_ATTR_MAINT_ROUTE"], b"\0"),
                           u32("LOOM_ATTR_MAINT_ADDR", 0x90)],
        "no_route": [u8("LOOM_ATTR_MAINT_OP", op_read), u32("LOOM_ATTR_MAINT_ADDR", 0x90)],
        "reply_attr": [u8("LOOM_ATTR_MAINT_OP", op_read), attr(mnt["LOOM_ATTR_MAINT_ROUTE"], b""),
                       u32("LOOM_ATTR_MAINT_ADDR", 0x90), u32("LOOM_ATTR_MAINT_STATUS", 0)],
        "timeout_zero": [u8("LOOM_ATTR_MAINT_OP", op_read), attr(mnt["LOOM_ATTR_MAINT_ROUTE"], b""),
                         u32("LOOM_ATTR_MAINT_ADDR", 0x90), u32("LOOM_ATTR_MAINT_TIMEOUT_MS", 0)],
    }[case]
    attrs = attr(top["LOOM_ATTR_DEV_INDEX"], struct.pack("=I", 0)) + \
        attr(top["LOOM_ATTR_MAINT"] | NLA_F_NESTED, b"".join(parts))
    print_answer(request(sock, family, cmds["LOOM_CMD_MAINT"], attrs, 2))
    return 0


def maint_read(top, mnt, port, timeout_ms):
    """A read of NODE_ID over @port, one attempt of @timeout_ms."""
    parts = [attr(mnt["LOOM_ATTR_MAINT_OP"], struct.pack("=B", 1)),
             attr(mnt["LOOM_ATTR_MAINT_ROUTE"], bytes([port])),
             attr(mnt["LOOM_ATTR_MAINT_ADDR"], struct.pack("=I", 0x90)),
             attr(mnt["LOOM_ATTR_MAINT_TIMEOUT_MS"], struct.pack("=I", timeout_ms)),
             attr(mnt["LOOM_ATTR_MAINT_RETRIES"], struct.pack("=I", 0))]
    return attr(top["LOOM_ATTR_DEV_INDEX"], struct.pack("=I", 0)) + \
        attr(top["LOOM_ATTR_MAINT"] | NLA_F_NESTED, b"".join(parts))


def special(case, sock, family, groups, cmds, top, mnt, args):
    names = {v: k for k, v in cmds.items()}
    maint = cmds["LOOM_CMD_MAINT"]
    if case == "listen":
        group, seconds = args[0], float(args[1])
        if group not in groups:
            print("join: errno=%d (the family has no group \"%s\")" % (2, group), flush=True)
            return 0
        try:
            sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, groups[group])
            print("join: errno=0", flush=True)
        except OSError as e:
            print("join: errno=%d" % e.errno, flush=True)
            return 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            sock.settimeout(max(end - time.monotonic(), 0.01))
            try:
                data = sock.recv(65536)
            except socket.timeout:
                break
            length, kind, _, _, _ = struct.unpack_from("=IHHII", data)
            if kind != family:
                continue
            cmd = data[16]
            value = ""
            nest = attrs_of(data[20:length]).get(top["LOOM_ATTR_MAINT"])
            if nest is not None:
                v = attrs_of(nest).get(mnt["LOOM_ATTR_MAINT_VALUE"])
                if v is not None:
                    value = struct.unpack_from("=I", v)[0]
            print("event %s value=%s" % (names.get(cmd, cmd), value), flush=True)
        return 0
    if case == "signal_wait":
        got = []
        signal.signal(signal.SIGALRM, lambda s, f: got.append(s))
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        sock.settimeout(10)
        try:
            print_answer(request(sock, family, maint, maint_read(top, mnt, 7, 1500), 3))
        except socket.timeout:
            print("no answer", flush=True)
        print("signals=%d" % len(got), flush=True)
        return 0
    # killed_wait, killed_queued
    blocker = None
    if case == "killed_queued":
        other = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        other.bind((0, 0))
        blocker = os.fork()
        if blocker == 0:
            try:
                request(other, family, maint, maint_read(top, mnt, 7, 3000), 4)
            finally:
                os._exit(0)
        time.sleep(0.3)
    child = os.fork()
    if child == 0:
        send(sock, family, maint, maint_read(top, mnt, 7, 3000), 5)
        while True:
            time.sleep(10)
    time.sleep(0.3)
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    sock.settimeout(10)
    try:
        print_answer(receive(sock))
    except socket.timeout:
        print("no answer", flush=True)
    if blocker:
        os.waitpid(blocker, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
