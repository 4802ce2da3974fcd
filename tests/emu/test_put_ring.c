// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: rings of 2 and 4 cards; every node puts 1 MiB of its
 * own pattern to every node (itself included) with an arrival event.
 * Checks byte-exact data, one LOCAL completion per put (OK, 1 MiB) and one
 * ARRIVAL per put at the target (tag = remote offset, value = length,
 * source node and context), and that no framing errors were counted.
 */
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define PUT_LEN		(1u << 20)
#define CTX_IDX		1
#define KEY		0x5eed0000u	/* one partition: every context */

static uint8_t pattern(unsigned int src, uint64_t off)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(src + 1) * 0xc2b2ae3d27d4eb4full;

	return (uint8_t)(x >> 29);
}

/* segment layout: [0, 1 MiB) my pattern; slot s at (1 + s) MiB receives node s */
static uint64_t slot_off(unsigned int src)
{
	return (uint64_t)(1 + src) * PUT_LEN;
}

static void run_ring(unsigned int n)
{
	struct fabric f;
	struct fh_ctx ctx[FABRIC_MAX_CARDS];
	unsigned int local_ok = 0, local_bad = 0, arr_ok = 0, arr_bad = 0;
	unsigned int want = n * n;
	bool data_ok = true, counters_ok = true, alive = true, setup_ok;
	uint64_t deadline;

	setup_ok = fabric_init(&f, 120) == 0 && fabric_start_ring(&f, n) == 0;
	for (unsigned int i = 0; setup_ok && i < n; i++) {
		int r = fh_ctx_create(&f.fh[i], &ctx[i], CTX_IDX, KEY, 6, 8,
				      (uint64_t)(n + 1) * PUT_LEN);

		if (r != LOOM_ADMIN_E_OK) {
			tap_diag("card %u: context enable returned %d", i, r);
			setup_ok = false;
		}
	}
	if (!tap_ok(setup_ok, "ring of %u: cards started, links up, contexts enabled", n)) {
		for (unsigned int i = 0; i < 5; i++)
			tap_ok(0, "ring of %u: skipped after setup failure", n);
		fabric_stop();
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		for (uint64_t o = 0; o < PUT_LEN; o++)
			ctx[i].segp[o] = pattern(i, o);
		memset(ctx[i].segp + PUT_LEN, 0xee, (size_t)n * PUT_LEN);
	}
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int d = 0; d < n; d++) {
			struct loom_cmd cmd = {
				.opcode = LOOM_OP_PUT,
				.flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE,
				.dst_ctx = CTX_IDX,
				.dst_node = d,
				.tag = 0x7a9000 + i * 16 + d,
				.local_off = 0,
				.remote_off = slot_off(i),
				.length = PUT_LEN,
			};

			if (!fh_submit(&ctx[i], &cmd))
				tap_diag("card %u: command ring full", i);
		}
	}
	deadline = fh_now_ms() + 60000;
	while (local_ok + local_bad + arr_ok + arr_bad < 2 * want && fh_now_ms() < deadline) {
		for (unsigned int i = 0; i < n; i++) {
			struct loom_cqe e;

			while (fh_wait_cqe(&ctx[i], &e, 5) == 1) {
				if (e.kind == LOOM_CQE_LOCAL) {
					unsigned int d = (unsigned int)(e.tag - 0x7a9000 - i * 16);
					bool ok = e.status == LOOM_CQE_ST_OK && e.value == PUT_LEN &&
						  d < n && e.src_node == d && e.src_ctx == CTX_IDX &&
						  e.opcode == LOOM_OP_PUT;

					ok ? local_ok++ : local_bad++;
					if (!ok)
						tap_diag("card %u: LOCAL tag 0x%llx status %u value %llu node %u ctx %u",
							 i, (unsigned long long)e.tag, e.status,
							 (unsigned long long)e.value, e.src_node, e.src_ctx);
				} else {
					unsigned int s = e.src_node;
					bool ok = e.kind == LOOM_CQE_ARRIVAL && s < n &&
						  e.tag == slot_off(s) && e.value == PUT_LEN &&
						  e.src_ctx == CTX_IDX && e.status == LOOM_CQE_ST_OK;

					ok ? arr_ok++ : arr_bad++;
					if (!ok)
						tap_diag("card %u: kind %u tag 0x%llx value %llu from %u.%u status %u",
							 i, e.kind, (unsigned long long)e.tag,
							 (unsigned long long)e.value, e.src_node, e.src_ctx,
							 e.status);
				}
			}
		}
	}
	tap_ok(local_ok == want && local_bad == 0,
	       "ring of %u: %u LOCAL completions OK with 1 MiB each (got %u, %u wrong)", n, want,
	       local_ok, local_bad);
	tap_ok(arr_ok == want && arr_bad == 0,
	       "ring of %u: %u ARRIVAL completions with offset, length and source (got %u, %u wrong)",
	       n, want, arr_ok, arr_bad);
	for (unsigned int d = 0; d < n; d++) {
		for (unsigned int s = 0; s < n; s++) {
			const uint8_t *p = ctx[d].segp + slot_off(s);

			for (uint64_t o = 0; o < PUT_LEN; o++) {
				if (p[o] != pattern(s, o)) {
					tap_diag("node %u, data from %u: first bad byte at %llu: 0x%02x != 0x%02x",
						 d, s, (unsigned long long)o, p[o], pattern(s, o));
					data_ok = false;
					break;
				}
			}
		}
	}
	tap_ok(data_ok, "ring of %u: every 1 MiB put landed byte-exact", n);
	for (unsigned int i = 0; i < n && n > 1; i++) {
		for (unsigned int p = 0; p < 2; p++) {
			uint32_t crc = fh_rd32(&f.fh[i], fh_port_reg(&f.fh[i], p, LOOM_PORT_CRC_ERRORS));
			uint32_t seq = fh_rd32(&f.fh[i], fh_port_reg(&f.fh[i], p, LOOM_PORT_SEQ_ERRORS));
			uint32_t drops = fh_rd32(&f.fh[i], fh_port_reg(&f.fh[i], p, LOOM_PORT_DROPS));

			if (crc || seq || drops) {
				tap_diag("card %u port %u: crc %u seq %u drops %u", i, p, crc, seq, drops);
				counters_ok = false;
			}
		}
	}
	tap_ok(counters_ok, "ring of %u: no CRC, sequence or drop counts on clean cables", n);
	for (unsigned int i = 0; i < n; i++) {
		if (!fabric_card_alive(&f, i)) {
			tap_diag("card %u died", i);
			fabric_dump_log(&f, i);
			alive = false;
		}
	}
	tap_ok(alive, "ring of %u: every card still running", n);
	if (tap.failed)
		for (unsigned int i = 0; i < n; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
}

int main(void)
{
	tap_plan(12);
	run_ring(2);
	run_ring(4);
	return tap_exit_status();
}
