# SPDX-License-Identifier: GPL-2.0
# The register window of a lab's card emulator, from the host: its memfd,
# reached through /proc/PID/fd, read and written 32 bits at a time, as the
# guest sees it in BAR2.  Source after lab.sh, once the lab is up.
#   card_regs_open HOST    finds card HOST's window (CARD_REGS); 1 if not
#   card_rd32 OFF          prints the register at OFF
#   card_wr32 OFF VALUE    writes it as the card itself would (control
#                          socket 'reg'), so that the card's strict register
#                          checking takes it for the card's own value
#   card_blk TYPE          prints the offset of the first block of TYPE,
#                          walking the chain like the driver
#   card_ctl HOST LINE     one command on card HOST's control socket; prints
#                          the answer
CARD_REGS=

card_regs_open() {
	local pid fd
	pid=$("$LOOM_LAB" status --dir "$LAB_DIR" |
	      sed -n "s/^card $1: loom-card pid \([0-9]*\).*/\1/p")
	CARD_REGS=
	CARD_HOST=$1
	for fd in /proc/"$pid"/fd/*; do
		case "$(readlink "$fd")" in *memfd:loom-card-regs*) CARD_REGS=$fd ;; esac
	done
	[ -n "$CARD_REGS" ]
}

card_rd32() { od -An -tu4 -j "$1" -N4 "$CARD_REGS" | tr -d ' '; }

card_wr32() {
	case "$(card_ctl "$CARD_HOST" "reg $1 $2")" in
	ok*) ;;
	*) echo "card_wr32 $1 $2: the card refused it" >&2; return 1 ;;
	esac
}

card_blk() {
	local off=0 n=0
	while [ $n -lt 64 ]; do
		[ "$(card_rd32 $off)" = "$1" ] && { echo $off; return; }
		off=$(card_rd32 $((off + 8)))
		[ "$off" = 0 ] && return
		n=$((n + 1))
	done
}

card_ctl() {
	python3 - "$LAB_DIR/card$1.ctl" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
buf = b""
while not buf.endswith(b"\n"):
    chunk = s.recv(4096)
    if not chunk:
        break
    buf += chunk
print(buf.decode().strip())
PY
}
