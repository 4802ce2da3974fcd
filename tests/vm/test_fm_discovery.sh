#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-fm live on a 2x2 torus started with --no-routes (4 VMs): before
# configuration a put to a remote node fails (no route); `loom-fm discover`
# on host 0 finds exactly the lab's cables over the maintenance network;
# `loom-fm configure --shape torus:2x2` programs every card so that each
# routing table is the lab's dimension-order table (loomctl route show on
# every host), node 1's VC table has dor's datelines, and puts between
# every ordered pair arrive verified; a second configure writes nothing
# (-j); discover -j from host 1 sees the fabric from there; the guest
# kernel logs stay clean.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
. "$here/../lib/lab_pairs.sh"
tap_plan 11
lab_start_test "torus:2x2 with --no-routes starts 4 hosts" --shape torus:2x2 --no-routes
out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

# the lab's cables as a topology file (physical ids = lab node ids), each
# cable written lower end first as loom-fm prints it
"$LOOM_LAB" topology --shape torus:2x2 -j >"$out/topo.json"
python3 - "$out/topo.json" >"$out/expected.topo" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
for c in t["cables"]:
    a, b = sorted([(c["a"]["node"], c["a"]["port"]), (c["b"]["node"], c["b"]["port"])])
    print("%d:%d %d:%d" % (a + b))
PY
"$LOOM_LAB" exec --dir "$LAB_DIR" --stdin 0 -- 'cat >/tmp/expected.topo' <"$out/expected.topo"

# unconfigured: node 0 has no route to node 3
lab_exec 3 loom-xfer recv --ctx 7 --key 0x77 --size 64K --timeout $(lab_scaled 8) >"$out/r0" 2>&1 &
rpid=$!
lab_exec 0 loom-xfer send --to 3 --ctx 7 --key 0x77 --size 64K --timeout $(lab_scaled 8) >"$out/s0" 2>&1
src=$?
wait $rpid
tap_diag "$(cat "$out/s0")"
[ $src != 0 ]
tap_check "before configure, a put from node 0 to node 3 fails (no route)" test $? = 0

lab_exec 0 loom-fm discover --topology /tmp/expected.topo >"$out/disc" 2>"$out/disc.err"
rc=$?
tap_diag "$(cat "$out/disc" "$out/disc.err")"
[ $rc = 0 ] && grep -q '^# loom-fm discover: 4 cards, 8 cables' "$out/disc" &&
	grep -q 'matches the fabric (0 differences)' "$out/disc.err"
tap_check "discover finds the 4 cards and exactly the lab's 8 cables" test $? = 0
sort "$out/expected.topo" >"$out/a"
grep -v '^#' "$out/disc" | sort >"$out/b"
tap_check "the printed topology is the lab's cable list" cmp -s "$out/a" "$out/b"

lab_exec 0 loom-fm configure --shape torus:2x2 >"$out/conf" 2>&1
rc=$?
tap_diag "$(cat "$out/conf")"
[ $rc = 0 ] && grep -q '^configured 4 cards, 8 cables with engine dor: 12 routing entries changed on 4 cards' "$out/conf"
tap_check "configure --shape torus:2x2 programs 12 routes on 4 cards and verifies" test $? = 0

# every card's table is the lab's dimension-order table
for h in 0 1 2 3; do lab_exec $h loomctl -j route show >"$out/rt$h.json" 2>&1; done
python3 - "$out" >"$out/rtcheck" 2>&1 <<'PY'
import json, sys
out = sys.argv[1]
t = json.load(open(out + "/topo.json"))
ok = True
for n in t["nodes"]:
    want = {r["dst"]: r["port"] for r in n["routes"]}
    got = {}
    for e in json.load(open("%s/rt%d.json" % (out, n["id"]))):
        if e["valid"]:
            got[e["dest"]] = "host" if e["port"] == "host" else e["port"]
    want[n["id"]] = "host"
    if got != want:
        print("node %d: want %s got %s" % (n["id"], want, got))
        ok = False
print("tables ok" if ok else "tables differ")
PY
tap_diag "$(cat "$out/rtcheck")"
tap_check "every card's routing table is the dimension-order table" grep -q '^tables ok$' "$out/rtcheck"

# dor's VC table on node 1 (1,0): +X leaves the last node of the X ring and
# -Y the first of the Y ring: both datelines; port dimensions 0 1 0 1
lab_exec 1 loomctl vc show >"$out/vc1" 2>&1
tap_diag "$(cat "$out/vc1")"
grep -qx '    port 0 dim 0 dateline' "$out/vc1" && grep -qx '    port 1 dim 1' "$out/vc1" &&
	grep -qx '    port 2 dim 0' "$out/vc1" && grep -qx '    port 3 dim 1 dateline' "$out/vc1"
tap_check "node 1's VC table: port dimensions and the two datelines dor puts there" test $? = 0

# every ordered pair, in three rounds of four concurrent puts
lab_put_all_pairs 0x500 "$out"
tap_check "puts between all 12 ordered pairs arrive, every byte verified" test $? = 0

# -j: the JSON object alone on stdout, the progress lines on stderr
lab_exec 0 loom-fm configure --shape torus:2x2 -j >"$out/conf2" 2>"$out/conf2.err"
rc=$?
tap_diag "$(cat "$out/conf2.err" "$out/conf2")"
[ $rc = 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r["cards"] == 4 and r["cables"] == 8 and r["engine"] == "dor" and
         r["routes_changed"] == 0 and r["registers_written"] == 0 and r["verified"] > 0 else 1)' "$out/conf2"
tap_check "configuring again writes nothing (-j)" test $? = 0

lab_exec 1 loom-fm discover -j >"$out/disc.json" 2>/dev/null
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
routes = {c["node"]: c["route"] for c in d["cards"]}
sys.exit(0 if len(d["cables"]) == 8 and routes[1] == [] and len(routes[2]) == 2 and
         all(s == "up" for c in d["cards"] for s in c["port_state"]) else 1)' "$out/disc.json"
tap_check "discover -j from host 1: 8 cables, itself local, node 2 two hops away" test $? = 0

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
