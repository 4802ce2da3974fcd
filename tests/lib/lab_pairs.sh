# SPDX-License-Identifier: GPL-2.0
# Puts between every ordered pair of the 4 hosts of a lab.  Source after
# tap.sh and lab.sh.
#   lab_put_all_pairs KEYBASE OUTDIR
#       three rounds of four concurrent 256 KiB puts (host h to h + shift,
#       shift 1..3; context 20 + h, key KEYBASE + h); each receiver must
#       report "every byte verified".  Logs go to OUTDIR/{send,recv}.SHIFT.H;
#       each failed pair is told as a TAP diagnostic.  Returns 0 when every
#       put arrived verified, 1 otherwise.
lab_put_all_pairs() {
	local keybase=$1 out=$2 fails=0 shift h d p pids

	for shift in 1 2 3; do
		pids=()
		for h in 0 1 2 3; do
			d=$(((h + shift) % 4))
			lab_exec $d loom-xfer recv --ctx $((20 + h)) --key $((keybase + h)) --size 256K \
				--seed $((shift * 10 + h)) --timeout 30 >"$out/recv.$shift.$h" 2>&1 &
			pids+=($!)
		done
		for h in 0 1 2 3; do
			d=$(((h + shift) % 4))
			lab_exec $h loom-xfer send --to $d --ctx $((20 + h)) --key $((keybase + h)) --size 256K \
				--seed $((shift * 10 + h)) --timeout 30 >"$out/send.$shift.$h" 2>&1 &
			pids+=($!)
		done
		for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
		for h in 0 1 2 3; do
			grep -q 'every byte verified' "$out/recv.$shift.$h" ||
				{ fails=$((fails + 1)); tap_diag "$h -> $(((h + shift) % 4)): $(cat "$out/send.$shift.$h" "$out/recv.$shift.$h")"; }
		done
	done
	[ $fails = 0 ]
}
