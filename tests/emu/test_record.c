// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the packet recorder and its replay: 2 cards record
 * (control command "record FILE") while card 0 puts 1000 bytes, gets 600
 * bytes and does a fetch-add on card 1, and card 1 puts 64 bytes to card
 * 0.  Each trace must hold exactly the requests the cards sent, packet by
 * packet (type, destination, payload, the size of the answer asked for,
 * cycles in order); "record off" reports their number; bad record commands
 * are refused.  loom-sim --replay of both files on ring:2 then delivers
 * every request and every answer, with the recorded sizes.
 */
#include "fabric.h"
#include "tap.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		2
#define KEY		0x7ecd00u
#define SEG		(1u << 16)

struct rec {
	unsigned long long cycle, resp;
	unsigned int dst, bytes;
	char type[8];
};

/* Submit @c on @ctx and wait for its completion; false with a diagnostic. */
static bool run_cmd(struct fh_ctx *ctx, const struct loom_cmd *c, const char *what)
{
	struct loom_cqe e;

	if (!fh_submit(ctx, c) || fh_wait_cqe(ctx, &e, 20000) != 1) {
		tap_diag("%s: no completion", what);
		return false;
	}
	if (e.status != LOOM_CQE_ST_OK) {
		tap_diag("%s: completion status %u, expected OK", what, e.status);
		return false;
	}
	return true;
}

/* Read trace @path: header node into *node, records into @r (at most @max); count or -1. */
static int read_trace(const char *path, unsigned int *node, struct rec *r, int max)
{
	char line[256];
	unsigned long long sc, ns;
	unsigned int khz;
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f) {
		tap_diag("%s: cannot open", path);
		return -1;
	}
	if (!fgets(line, sizeof(line), f) || strcmp(line, "# loom packet trace 1\n") ||
	    !fgets(line, sizeof(line), f) ||
	    sscanf(line, "# node %u clock_khz %u start_cycle %llu start_ns %llu", node, &khz, &sc,
		   &ns) != 4) {
		tap_diag("%s: header is not '# loom packet trace 1' / '# node N clock_khz K ...': '%s'",
			 path, line);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f) && n < max) {
		if (sscanf(line, "%llu %u %7s %u %llu", &r[n].cycle, &r[n].dst, r[n].type,
			   &r[n].bytes, &r[n].resp) != 5) {
			tap_diag("%s: record '%s' is not 'CYCLE DST TYPE BYTES RESP_BYTES'", path,
				 line);
			fclose(f);
			return -1;
		}
		n++;
	}
	fclose(f);
	return n;
}

/* Does @r hold exactly the @n records of @want (type dst bytes resp), cycles in order? */
static bool same_records(const char *who, const struct rec *r, int n, const struct rec *want,
			 int nwant)
{
	bool ok = n == nwant;

	for (int k = 0; k < n && k < nwant; k++) {
		if (strcmp(r[k].type, want[k].type) || r[k].dst != want[k].dst ||
		    r[k].bytes != want[k].bytes || r[k].resp != want[k].resp ||
		    (k && r[k].cycle < r[k - 1].cycle)) {
			tap_diag("%s record %d: '%llu %u %s %u %llu', expected '%s %u %u %llu' after "
				 "cycle %llu", who, k, r[k].cycle, r[k].dst, r[k].type, r[k].bytes,
				 r[k].resp, want[k].type, want[k].dst, want[k].bytes, want[k].resp,
				 k ? r[k - 1].cycle : 0);
			ok = false;
		}
	}
	if (n != nwant)
		tap_diag("%s: %d records, expected %d", who, n, nwant);
	return ok;
}

/* loom-sim --replay of both traces; the delivered packets by type into the counts. */
static bool replay(struct fabric *f, const char *t0, const char *t1, unsigned int *puts,
		   unsigned int *gets, unsigned int *get_resps, unsigned int *amos,
		   unsigned int *amo_resps, char *result, size_t rlen)
{
	char sim[PATH_MAX], out[PATH_MAX], cmd[3 * PATH_MAX + 200], line[256];
	FILE *p;
	int rc;

	fabric_tool_bin(sim, sizeof(sim), "../../bin/loom-sim", "loom-sim");
	fabric_path(f, out, sizeof(out), "replayed");
	snprintf(cmd, sizeof(cmd), "'%s' --topology ring:2 --replay '%s' --replay '%s' --trace '%s' 2>&1",
		 sim, t0, t1, out);
	p = popen(cmd, "r");
	result[0] = 0;
	while (p && fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "result", 6))
			snprintf(result, rlen, "%s", line);
		tap_diag("loom-sim: %s", line);
	}
	rc = p ? pclose(p) : -1;
	p = fopen(out, "r");
	*puts = *gets = *get_resps = *amos = *amo_resps = 0;
	while (p && fgets(line, sizeof(line), p)) {
		if (strstr(line, " get-resp"))
			(*get_resps)++;
		else if (strstr(line, " amo-resp"))
			(*amo_resps)++;
		else if (strstr(line, " get"))
			(*gets)++;
		else if (strstr(line, " amo"))
			(*amos)++;
		else if (strstr(line, " put"))
			(*puts)++;
	}
	if (p)
		fclose(p);
	return rc == 0;
}

int main(void)
{
	static struct fabric f;
	static const char *const no_more[] = { NULL };
	static const struct rec want0[] = {
		{ .type = "put", .dst = 1, .bytes = 256 }, { .type = "put", .dst = 1, .bytes = 256 },
		{ .type = "put", .dst = 1, .bytes = 256 }, { .type = "put", .dst = 1, .bytes = 232 },
		{ .type = "get", .dst = 1, .resp = 256 }, { .type = "get", .dst = 1, .resp = 256 },
		{ .type = "get", .dst = 1, .resp = 88 },
		{ .type = "amo", .dst = 1, .bytes = 16, .resp = 8 },
	};
	static const struct rec want1[] = { { .type = "put", .dst = 0, .bytes = 64 } };
	struct loom_cmd put0 = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = 1,
		.tag = 1, .length = 1000,
	}, get0 = put0, amo0 = put0, put1 = put0;
	char path[2][200], cmd[240], reply[512];
	unsigned long long packets[2] = { 0, 0 };
	unsigned int node[2], puts, gets, get_resps, amos, amo_resps;
	struct rec r[2][16];
	struct fh_ctx ctx[2];
	char result[256];
	int n[2];
	bool ok;

	tap_plan(6);
	get0.opcode = LOOM_OP_GET;
	get0.length = 600;
	get0.local_off = 4096;
	amo0.opcode = LOOM_OP_ATOMIC;
	amo0.length = 8;
	amo0.remote_off = 8192;
	amo0.aux = LOOM_AMO_FETCH_ADD;
	amo0.operand = 5;
	put1.dst_node = 0;
	put1.length = 64;
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, 2, no_more) == 0 &&
	     fh_ctx_create(&f.fh[0], &ctx[0], CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &ctx[1], CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	for (unsigned int i = 0; ok && i < 2; i++) {
		fabric_path(&f, path[i], sizeof(path[i]), i ? "card1.trace" : "card0.trace");
		snprintf(cmd, sizeof(cmd), "record %s", path[i]);
		ok = fabric_ctl(&f, i, cmd, reply, sizeof(reply)) == 0 &&
		     !strncmp(reply, "ok record on ", 13);
		if (!ok)
			tap_diag("card %u: '%s' answered '%s'", i, cmd, reply);
	}
	if (!tap_ok(ok, "2 cards up, contexts enabled, both recording")) {
		for (unsigned int i = 0; i < 5; i++)
			tap_ok(0, "skipped after setup failure");
		fabric_stop();
		return tap_exit_status();
	}
	ok = run_cmd(&ctx[0], &put0, "card 0 put 1000 B") && run_cmd(&ctx[0], &get0, "card 0 get 600 B") &&
	     run_cmd(&ctx[0], &amo0, "card 0 fetch-add") && run_cmd(&ctx[1], &put1, "card 1 put 64 B");
	for (unsigned int i = 0; i < 2; i++) {
		if (fabric_ctl(&f, i, "record off", reply, sizeof(reply)) != 0 ||
		    sscanf(reply, "ok record off packets %llu", &packets[i]) != 1) {
			tap_diag("card %u: 'record off' answered '%s'", i, reply);
			ok = false;
		}
	}
	tap_ok(ok && packets[0] == 8 && packets[1] == 1,
	       "put, get and fetch-add completed; 'record off' counts %llu and %llu requests (8 and 1)",
	       packets[0], packets[1]);
	n[0] = read_trace(path[0], &node[0], r[0], 16);
	n[1] = read_trace(path[1], &node[1], r[1], 16);
	tap_ok(n[0] >= 0 && node[0] == 0 &&
	       same_records("card 0", r[0], n[0], want0, (int)(sizeof(want0) / sizeof(want0[0]))) &&
	       n[1] >= 0 && node[1] == 1 && same_records("card 1", r[1], n[1], want1, 1),
	       "each trace holds its card's requests packet by packet (4 puts, 3 gets, 1 amo; 1 put)");
	ok = fabric_ctl(&f, 0, "record /nonexistent-dir/x.trace", reply, sizeof(reply)) == 0 &&
	     strstr(reply, "error: record /nonexistent-dir/x.trace: cannot create") == reply;
	if (!ok)
		tap_diag("'record /nonexistent-dir/x.trace' answered '%s'", reply);
	ok = ok && fabric_ctl(&f, 0, "record off", reply, sizeof(reply)) == 0 &&
	     !strcmp(reply, "error: record off: the card is not recording");
	if (!ok)
		tap_diag("'record off' while not recording answered '%s'", reply);
	ok = ok && fabric_ctl(&f, 0, "record a b", reply, sizeof(reply)) == 0 &&
	     !strncmp(reply, "error: record: expected", 23) &&
	     fabric_ctl(&f, 0, "record", reply, sizeof(reply)) == 0 && !strcmp(reply, "ok record off");
	tap_ok(ok, "bad record commands are refused with the reason; 'record' tells the state ('%s')",
	       reply);
	ok = replay(&f, path[0], path[1], &puts, &gets, &get_resps, &amos, &amo_resps, result,
		    sizeof(result));
	tap_ok(ok && strstr(result, "ok"), "loom-sim --replay of both traces on ring:2 completes (%s)",
	       result[0] ? result : "no result line");
	tap_ok(puts == 5 && gets == 3 && get_resps == 3 && amos == 1 && amo_resps == 1,
	       "replayed: %u puts, %u gets, %u get answers, %u atomics, %u atomic answers delivered "
	       "(5, 3, 3, 1, 1)", puts, gets, get_resps, amos, amo_resps);
	fabric_stop();
	return tap_exit_status();
}
