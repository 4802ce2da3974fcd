#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send one malformed LOOM_CMD_MAINT request that loomctl cannot produce
and print the kernel's answer as "errno=N msg=TEXT" (errno 0: accepted).

usage: maint_raw.py HEADER CASE
  HEADER  include/uapi/linux/loom_netlink.h (enum values are read from it)
  CASE    bad_op | no_addr | write_no_value | no_route | reply_attr |
          timeout_zero
"""
import re
import socket
import struct
import sys

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


def request(sock, family, cmd, attrs, seq):
    body = struct.pack("=BBH", cmd, 1, 0) + attrs
    sock.send(struct.pack("=IHHII", 16 + len(body), family, NLM_F_REQUEST | NLM_F_ACK,
                          seq, 0) + body)
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
    for kind, _, payload in request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                    attr(CTRL_ATTR_FAMILY_NAME, b"loom\0"), 1):
        if kind == GENL_ID_CTRL:
            family = struct.unpack_from("=H", attrs_of(payload[4:])[CTRL_ATTR_FAMILY_ID])[0]
    if family is None:
        print("errno=-1 msg=no loom family")
        return 1

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
    for kind, flags, payload in request(sock, family, cmds["LOOM_CMD_MAINT"], attrs, 2):
        if kind != NLMSG_ERROR:
            continue
        err = struct.unpack_from("=i", payload)[0]
        msg = ""
        if flags & NLM_F_ACK_TLVS:
            tlv = attrs_of(payload[4 + 16:])
            msg = tlv.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode()
        print("errno=%d msg=%s" % (-err, msg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
