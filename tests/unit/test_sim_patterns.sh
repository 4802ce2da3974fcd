#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim's traffic patterns, from the per-packet trace: every packet of a
# fixed pattern goes where the pattern's definition sends it (computed here
# from coordinates), permutation is a permutation without fixed points,
# uniform never sends to the source and reaches everyone, the hot spot gets
# its fraction; and the text, CSV and JSON results of one run agree.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

# pattern NAME SHAPE PYTHON-CHECK [LOAD]: the check reads the trace's (src, dst) pairs
pattern() {
	local name=$1 shape=$2 check=$3 load=${4:-0.05} out
	if ! "$sim" --topology "$shape" --pattern "$name" --load "$load" --seed 9 --warmup 0 \
		--cycles 3000 --trace "$tmp/trace" >"$tmp/out" 2>&1; then
		tap_diag "$(cat "$tmp/out")"
		tap_fail "pattern $name on $shape: the run failed"
		return
	fi
	out=$(python3 - "$tmp/trace" "$shape" "$check" <<'PY'
import sys
pairs = [tuple(int(x) for x in l.split()[:2]) for l in open(sys.argv[1])]
sizes = [int(k) for k in sys.argv[2].split(":")[1].split("x")]
n = 1
for k in sizes:
    n *= k
def coords(v):
    c = []
    for k in sizes:
        c.append(v % k)
        v //= k
    return c
def node(c):
    v = 0
    for k, x in reversed(list(zip(sizes, c))):
        v = v * k + x
    return v
bad = eval(sys.argv[3])
print("%d packets; %s" % (len(pairs), "wrong: %s" % bad[:5] if bad else "all right"))
sys.exit(1 if bad or len(pairs) < 100 else 0)
PY
)
	if [ $? = 0 ]; then
		tap_ok "pattern $name on $shape: $out"
	else
		tap_fail "pattern $name on $shape: $out"
	fi
}

tap_plan 14
pattern tornado torus:8x8 \
	'[p for p in pairs if coords(p[1]) != [(c + 3) % 8 for c in coords(p[0])]]'
pattern neighbour torus:8x4 \
	'[p for p in pairs if coords(p[1]) != [(c + 1) % k for c, k in zip(coords(p[0]), sizes)]]'
pattern transpose mesh:4x4 '[p for p in pairs if coords(p[1]) != coords(p[0])[::-1]]'
pattern bitcomp torus:4x4 '[p for p in pairs if p[1] != (~p[0] & 15)]'
pattern permutation torus:4x4 \
	'[p for p in pairs if p[0] == p[1]] + [s for s in range(n) if len({d for x, d in pairs if x == s}) > 1] + ([] if len({d for s, d in pairs}) == n else ["not onto"])'
pattern uniform torus:4x4 \
	'[p for p in pairs if p[0] == p[1]] + ([] if len({p for p in pairs}) == n * (n - 1) else ["%d of %d pairs seen" % (len(set(pairs)), n * (n - 1))])' 0.3
pattern hotspot:5:0.5 torus:4x4 \
	'[] if 0.42 < sum(d == 5 for s, d in pairs) / len(pairs) < 0.58 else ["to node 5: %d of %d" % (sum(d == 5 for s, d in pairs), len(pairs))]'

pattern bitrev torus:4x4 '[p for p in pairs if p[1] != int(format(p[0], "04b")[::-1], 2)]'
pattern shuffle torus:4x4 '[p for p in pairs if p[1] != ((p[0] << 1 | p[0] >> 3) & 15)]'
# alltoall: every source reaches every other node, each about equally often
pattern alltoall torus:4x4 \
	'[p for p in pairs if p[0] == p[1]] + [(s, sorted(c.values())) for s in range(n) for c in [{d: sum(1 for x, y in pairs if (x, y) == (s, d)) for d in range(n) if d != s}] if min(c.values()) < 1 or max(c.values()) - min(c.values()) > 2]' 0.1

# worstcase against an oracle written here: dimension-order routes on an
# odd torus (no ties), a maximum matching of each channel's flows; the run
# must report the oracle's maximum and its permutation must load a channel
# that much
if "$sim" --topology torus:5x5x5 --pattern worstcase --load 0.02 --seed 3 --warmup 0 \
	--cycles 3000 --trace "$tmp/trace" -j >"$tmp/wj" 2>"$tmp/we"; then
	got=$(python3 - "$tmp/trace" "$tmp/wj" <<'PY'
import json, sys
k, dims = 5, 3
n = k ** dims
def coords(v):
    return [v // k ** d % k for d in range(dims)]
def node(c):
    return sum(x * k ** d for d, x in enumerate(c))
def route(s, t):
    c, ct, hops = coords(s), coords(t), []
    for d in range(dims):
        while c[d] != ct[d]:
            step = 1 if (ct[d] - c[d]) % k <= k // 2 else -1
            hops.append((node(c), d, step))
            c[d] = (c[d] + step) % k
    return hops
flows = {}
for s in range(n):
    for t in range(n):
        if s != t:
            for h in route(s, t):
                flows.setdefault(h, []).append((s, t))
def matching(pairs):
    adj = {}
    for s, t in pairs:
        adj.setdefault(s, []).append(t)
    owner = {}
    def augment(s, seen):
        for t in adj[s]:
            if t not in seen:
                seen.add(t)
                if t not in owner or augment(owner[t], seen):
                    owner[t] = s
                    return True
        return False
    return sum(augment(s, set()) for s in adj)
oracle = max(matching(p) for p in flows.values())
j = json.load(open(sys.argv[2]))
pairs = {tuple(int(x) for x in l.split()[:2]) for l in open(sys.argv[1])}
dest = dict(pairs)
perm = len(dest) == len(pairs) == n and sorted(dest.values()) == list(range(n))
used = {}
for s, t in dest.items():
    if s != t:
        for h in route(s, t):
            used[h] = used.get(h, 0) + 1
load = max(used.values())
print("reported %d flows at node %d port %d, oracle %d, the permutation's busiest channel %d, "
      "a permutation of %d sources: %s" % (j["worst_channel"]["flows"], j["worst_channel"]["node"],
      j["worst_channel"]["port"], oracle, load, len(dest), perm))
sys.exit(0 if perm and j["worst_channel"]["flows"] == oracle == load else 1)
PY
)
	tap_check "pattern worstcase on torus:5x5x5: $got" test $? = 0
else
	tap_diag "$(cat "$tmp/we")"
	tap_fail "pattern worstcase on torus:5x5x5: the run failed"
fi
"$sim" --topology torus:40x40 --pattern worstcase >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "worstcase beyond 1024 terminals: exit 1, named ($(cat "$tmp/e"))" \
	sh -c "[ $r = 1 ] && grep -q 'at most 1024 terminals, torus:40x40 has 1600' '$tmp/e'"

# one run, three formats
args=(--topology torus:4x4 --load 0.3 --seed 12 --warmup 100 --cycles 1000)
"$sim" "${args[@]}" >"$tmp/t" && "$sim" "${args[@]}" --format csv >"$tmp/c" &&
	"$sim" "${args[@]}" -j >"$tmp/j"
got=$(python3 - "$tmp/t" "$tmp/c" "$tmp/j" <<'PY'
import csv, json, re, sys
t = open(sys.argv[1]).read()
rows = list(csv.DictReader(open(sys.argv[2])))
j = json.load(open(sys.argv[3]))
tp = int(re.search(r"\((\d+) packets,", t).group(1))
ta = float(re.search(r"^accepted +([0-9.]+)", t, re.M).group(1))
print("packets text %d csv %s json %d; accepted text %.4f csv %s json %.4f; rows %d" %
      (tp, rows[0]["packets"], j["packets"], ta, rows[0]["accepted"], j["accepted"], len(rows)))
ok = len(rows) == 1 and tp == int(rows[0]["packets"]) == j["packets"] > 0 and \
     abs(ta - float(rows[0]["accepted"])) < 1e-4 and abs(ta - j["accepted"]) < 1e-4 and \
     rows[0]["result"] == j["result"] == "ok" and int(rows[0]["seed"]) == j["seed"] == 12
sys.exit(0 if ok else 1)
PY
)
tap_check "text, CSV and JSON of one run agree ($got)" test $? = 0
"$sim" --topology torus:4x4 --pattern tornado --trace "$tmp/nodir/trace" >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "--trace into a missing directory: exit 1, named ($(cat "$tmp/e"))" \
	sh -c "[ $r = 1 ] && grep -q 'trace $tmp/nodir/trace: cannot create' '$tmp/e'"
tap_done
