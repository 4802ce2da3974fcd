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
import re
import signal
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSG_ERROR = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NETLINK_ADD_MEMBERSHIP = 1
NLA_F_NESTED = 0x8000


def enum_values(text, name):
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    values, n = {}, 0
    for line in body.splitlines():
        m = re.match(r"\s*(\w+)\s*(=\s*([^,]+))?,", line)
        if not m:
            continue
        if m.group(3):
            expr = m.group(3).strip()
            n = values[expr.split()[0]] - 1 if "-" in expr else int(expr, 0)
        values[m.group(1)] = n
        n += 1
    return values


def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack("=HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)


def send(sock, family, cmd, attrs, seq):
    body = struct.pack("=BBH", cmd, 1, 0) + attrs
    sock.send(struct.pack("=IHHII", 16 + len(body), family, NLM_F_REQUEST | NLM_F_ACK,
                          seq, 0) + body)


def request(sock, family, cmd, attrs, seq):
    send(sock, family, cmd, attrs, seq)
    return receive(sock)


def receive(sock):
    replies = []
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            length, kind, flags, _, _ = struct.unpack_from("=IHHII", data, off)
            replies.append((kind, flags, data[off + 16:off + length]))
            if kind == NLMSG_ERROR:
                return replies
            off += (length + 3) & ~3


def attrs_of(payload):
    off, out = 0, {}
    while off + 4 <= len(payload):
        length, kind = struct.unpack_from("=HH", payload, off)
        if length < 4:
            break
        out[kind & 0x3fff] = payload[off + 4:off + length]
        off += (length + 3) & ~3
    return out


def main():
    text = open(sys.argv[1]).read()
    case = sys.argv[2]
    cmds = enum_values(text, "loom_nl_cmd")
    top = enum_values(text, "loom_nl_attr")
    mnt = enum_values(text, "loom_nl_maint_attr")

    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.bind((0, 0))
    family = None
    groups = {}
    for kind, _, payload in request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                    attr(CTRL_ATTR_FAMILY_NAME, b"loom\0"), 1):
        if kind == GENL_ID_CTRL:
            fam = attrs_of(payload[4:])
            family = struct.unpack_from("=H", fam[CTRL_ATTR_FAMILY_ID])[0]
            for grp in nests_of(fam.get(CTRL_ATTR_MCAST_GROUPS, b"")):
                g = attrs_of(grp)
                name = g[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0").decode()
                groups[name] = struct.unpack_from("=I", g[CTRL_ATTR_MCAST_GRP_ID])[0]
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


def print_answer(replies):
    for kind, flags, payload in replies:
        if kind != NLMSG_ERROR:
            continue
        err = struct.unpack_from("=i", payload)[0]
        msg = ""
        if flags & NLM_F_ACK_TLVS:
            tlv = attrs_of(payload[4 + 16:])
            msg = tlv.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode()
        print("errno=%d msg=%s" % (-err, msg), flush=True)


def nests_of(payload):
    off, out = 0, []
    while off + 4 <= len(payload):
        length, _ = struct.unpack_from("=HH", payload, off)
        if length < 4:
            break
        out.append(payload[off + 4:off + length])
        off += (length + 3) & ~3
    return out


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
