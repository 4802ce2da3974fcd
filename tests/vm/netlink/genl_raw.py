#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Raw generic netlink for the tests that talk to loom.ko's "loom" family
without loomctl: message framing, attributes, enum values read from the
uAPI header, and the family's id and multicast groups."""
import re
import socket
import struct

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSG_ERROR = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLM_F_DUMP = 0x300
NLMSG_DONE = 3
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


def send(sock, family, cmd, attrs, seq, flags=NLM_F_ACK):
    body = struct.pack("=BBH", cmd, 1, 0) + attrs
    sock.send(struct.pack("=IHHII", 16 + len(body), family, NLM_F_REQUEST | flags,
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


def messages(data):
    """The (type, flags, payload) of every message in one datagram."""
    off, out = 0, []
    while off + 16 <= len(data):
        length, kind, flags, _, _ = struct.unpack_from("=IHHII", data, off)
        if length < 16:
            break
        out.append((kind, flags, data[off + 16:off + length]))
        off += (length + 3) & ~3
    return out


def attrs_of(payload):
    off, out = 0, {}
    while off + 4 <= len(payload):
        length, kind = struct.unpack_from("=HH", payload, off)
        if length < 4:
            break
        out[kind & 0x3fff] = payload[off + 4:off + length]
        off += (length + 3) & ~3
    return out


def nests_of(payload):
    off, out = 0, []
    while off + 4 <= len(payload):
        length, _ = struct.unpack_from("=HH", payload, off)
        if length < 4:
            break
        out.append(payload[off + 4:off + length])
        off += (length + 3) & ~3
    return out


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


def open_family(name=b"loom"):
    """A bound generic netlink socket with extended acks, the family's id
    (None when the kernel has no such family) and its multicast groups."""
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.bind((0, 0))
    family, groups = None, {}
    for kind, _, payload in request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                    attr(CTRL_ATTR_FAMILY_NAME, name + b"\0"), 1):
        if kind == GENL_ID_CTRL:
            fam = attrs_of(payload[4:])
            family = struct.unpack_from("=H", fam[CTRL_ATTR_FAMILY_ID])[0]
            for grp in nests_of(fam.get(CTRL_ATTR_MCAST_GROUPS, b"")):
                g = attrs_of(grp)
                gname = g[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0").decode()
                groups[gname] = struct.unpack_from("=I", g[CTRL_ATTR_MCAST_GRP_ID])[0]
    return sock, family, groups
