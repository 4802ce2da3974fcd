#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Does one LOOM_CMD_STATS_GET dump report one snapshot of the performance
counters, even when another reader takes a newer one in the middle of it?

  stats_snapshot.py HEADER -- TRAFFIC...

HEADER is include/uapi/linux/loom_netlink.h (enum values are read from it).
Dumps device 0's statistics (D0), starts a second dump (A) and reads nothing
of it, runs the command TRAFFIC (which must move packets through the card's
router), dumps again to the end (B), and then reads A.  A's snapshot was
taken before the traffic, so its per-port flit and packet counts equal
D0's, although B's differ and A's later messages were made after B's
snapshot.  Prints

  a_batches N first_batch_msgs M perf_ports_in_first_batch K
  d0 PORT:FLITS_IN/FLITS_OUT/PKTS_IN/PKTS_OUT ...   (the same for a and b)
  a_equals_d0 0|1 b_equals_d0 0|1 traffic_rc RC

and exits 0 when every dump ended with NLMSG_DONE.
"""
import socket
import struct
import subprocess
import sys

from genl_raw import (NETLINK_GENERIC, NLM_F_DUMP, NLMSG_DONE, NLMSG_ERROR, attr, attrs_of,
                      enum_values, messages, open_family, send)


def dump_request(sock, family, cmds, top, seq):
    send(sock, family, cmds["LOOM_CMD_STATS_GET"],
         attr(top["LOOM_ATTR_DEV_INDEX"], struct.pack("=I", 0)), seq, NLM_F_DUMP)


def read_dump(sock):
    """The datagrams of a dump up to NLMSG_DONE, each a list of messages."""
    batches = []
    sock.settimeout(30)
    while True:
        batch = messages(sock.recv(1 << 20))
        batches.append(batch)
        for kind, _, payload in batch:
            if kind == NLMSG_DONE:
                return batches
            if kind == NLMSG_ERROR:
                raise SystemExit("dump failed: errno %d" %
                                 -struct.unpack_from("=i", payload)[0])


def perf_ports(batches, family, top, pp):
    """PORT -> (flits_in, flits_out, pkts_in, pkts_out) of a dump."""
    out = {}
    fields = ("LOOM_ATTR_PERF_PORT_FLITS_IN", "LOOM_ATTR_PERF_PORT_FLITS_OUT",
              "LOOM_ATTR_PERF_PORT_PKTS_IN", "LOOM_ATTR_PERF_PORT_PKTS_OUT")
    for batch in batches:
        for kind, _, payload in batch:
            if kind != family:
                continue
            nest = attrs_of(payload[4:]).get(top["LOOM_ATTR_PERF_PORT"])
            if nest is None:
                continue
            a = attrs_of(nest)
            port = struct.unpack_from("=I", a[pp["LOOM_ATTR_PERF_PORT_INDEX"]])[0]
            out[port] = tuple(struct.unpack_from("=Q", a[pp[f]])[0] for f in fields)
    return out


def show(name, ports):
    print(name, " ".join("%d:%s" % (p, "/".join(map(str, v))) for p, v in sorted(ports.items())))


def main():
    text = open(sys.argv[1]).read()
    traffic = sys.argv[sys.argv.index("--") + 1:]
    cmds = enum_values(text, "loom_nl_cmd")
    top = enum_values(text, "loom_nl_attr")
    pp = enum_values(text, "loom_nl_perf_port_attr")
    sock_d, family, _ = open_family()
    # A never received before its dump: its first batch is one page
    sock_a = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock_a.bind((0, 0))
    if family is None:
        print("no loom family")
        return 1
    dump_request(sock_d, family, cmds, top, 10)
    d0 = perf_ports(read_dump(sock_d), family, top, pp)
    dump_request(sock_a, family, cmds, top, 11)
    rc = subprocess.run(traffic).returncode
    dump_request(sock_d, family, cmds, top, 12)
    b = perf_ports(read_dump(sock_d), family, top, pp)
    a_batches = read_dump(sock_a)
    a = perf_ports(a_batches, family, top, pp)
    first = perf_ports(a_batches[:1], family, top, pp)
    print("a_batches %d first_batch_msgs %d perf_ports_in_first_batch %d" %
          (len(a_batches), len(a_batches[0]), len(first)))
    show("d0", d0)
    show("a", a)
    show("b", b)
    print("a_equals_d0 %d b_equals_d0 %d traffic_rc %d" % (a == d0 and bool(d0), b == d0, rc))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except socket.timeout:
        print("a dump did not end within 30 s")
        sys.exit(1)
