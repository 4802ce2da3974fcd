// SPDX-License-Identifier: GPL-2.0
/*
 * Golden traces: small recorded scenarios whose cycle-by-cycle outputs
 * (every flit on every output wire: port, VC, head/tail, its first 8
 * bytes; every credit returned upstream) are checked in under
 * tests/unit/golden/.  Any change of the router's timing changes a trace;
 * when the change is intended, regenerate them on purpose:
 *
 *   LOOM_GOLDEN_UPDATE=1 build/tests/unit/test_router_golden
 *
 * and commit the new traces with the change that explains them.
 */
#include "router_fabric.h"
#include "tap.h"

#include <libgen.h>
#include <stdarg.h>

TAP_DEFINE;

#define TRACE_MAX	(1 << 20)

struct trace {
	char *buf;
	size_t len;
};

static void trace_add(struct trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void trace_add(struct trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (t->len < TRACE_MAX)
		t->len += (size_t)vsnprintf(t->buf + t->len, TRACE_MAX - t->len, fmt, ap);
	va_end(ap);
}

/* Run @f for @cycles, recording every router's output wires. */
static void record(struct fab *f, unsigned int cycles, struct trace *t)
{
	for (unsigned int c = 0; c < cycles; c++) {
		fab_step(f);
		for (unsigned int i = 0; i < f->n; i++) {
			for (unsigned int p = 0; p < f->p.ports; p++) {
				const struct flit *fl = &router_out(f->r[i], p)->fwd;
				const uint8_t *cr = router_in(f->r[i], p)->back.credits;

				if (fl->valid) {
					trace_add(t, "%llu r%u out%u vc%u %c%c",
						  (unsigned long long)f->now, i, p, fl->vc,
						  fl->head ? 'H' : '-', fl->tail ? 'T' : '-');
					for (unsigned int b = 0; b < 8; b++)
						trace_add(t, " %02x", fl->data[b]);
					trace_add(t, "\n");
				}
				for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
					if (cr[v])
						trace_add(t, "%llu r%u in%u vc%u credit %u\n",
							  (unsigned long long)f->now, i, p, v, cr[v]);
			}
		}
	}
}

/* Host + 2 network ports, tiled: two inputs contend for one output. */
static void scenario_card(struct trace *t)
{
	struct router_params p;
	struct fab *f;

	static const unsigned int nodes[] = { 10, 11, 1 };

	router_preset_card(&p, 2);
	f = fab_single(&p, nodes);
	fab_send(f, 10, 11, LOOM_VC_REQ0, LOOM_CLASS_REQ, 40, 0);
	fab_send(f, 1, 11, LOOM_VC_REQ0, LOOM_CLASS_REQ, 8, 1);
	fab_send(f, 1, 11, LOOM_VC_RESP0, LOOM_CLASS_RESP, 0, 1);
	fab_send(f, 11, 1, LOOM_VC_REQ1, LOOM_CLASS_REQ, 100, 3);
	record(f, 60, t);
	fab_free(f);
}

/* Crossbar, 2 wormhole VCs of 3 flits: credit stalls and VC interleaving. */
static void scenario_xbar(struct trace *t)
{
	struct router_params p;
	struct fab *f;

	router_preset_xbar(&p, 4, 2);
	p.wormhole_vcs = 3;
	p.buf_depth = 3;
	p.lat_va = 2;
	f = fab_single(&p, (const unsigned int[]){ 0, 1, 2, 3 });
	fab_send(f, 0, 3, 0, LOOM_CLASS_REQ, 64, 0);
	fab_send(f, 1, 3, 1, LOOM_CLASS_REQ, 32, 0);
	fab_send(f, 2, 3, 0, LOOM_CLASS_REQ, 0, 2);
	fab_send(f, 3, 0, 1, LOOM_CLASS_REQ, 16, 4);
	record(f, 70, t);
	fab_free(f);
}

/* Two fully buffered crossbars in a line, link latency 2. */
static void scenario_fbx_line(struct trace *t)
{
	struct router_params p;
	struct fab *f;

	router_preset_fbx(&p, 3, 2);
	p.buf_depth = 32;
	f = fab_new(2, &p);
	fab_terminal(f, 0, 2, 0);
	fab_terminal(f, 1, 2, 1);
	fab_route(f, 0, 0, 2);
	fab_route(f, 0, 1, 1);
	fab_route(f, 1, 1, 2);
	fab_route(f, 1, 0, 0);
	fab_link(f, 0, 1, 1, 0, 2);
	fab_send(f, 0, 1, 0, LOOM_CLASS_REQ, 48, 0);
	fab_send(f, 1, 0, 1, LOOM_CLASS_REQ, 48, 0);
	fab_send(f, 0, 1, 1, LOOM_CLASS_REQ, 0, 5);
	record(f, 60, t);
	fab_free(f);
}

static void check(const char *name, void (*scenario)(struct trace *))
{
	char src[512], path[600];
	struct trace t = { calloc(1, TRACE_MAX + 1), 0 };
	char *want = calloc(1, TRACE_MAX + 1);
	size_t n = 0;
	FILE *fp;

	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(path, sizeof(path), "%s/golden/router_%s.trace", dirname(src), name);
	scenario(&t);
	if (getenv("LOOM_GOLDEN_UPDATE")) {
		fp = fopen(path, "w");
		if (fp) {
			fwrite(t.buf, 1, t.len, fp);
			fclose(fp);
		}
		tap_ok(fp != NULL, "golden %s: rewrote %s (%zu bytes)", name, path, t.len);
		goto out;
	}
	fp = fopen(path, "r");
	if (fp) {
		n = fread(want, 1, TRACE_MAX, fp);
		fclose(fp);
	}
	if (fp && n == t.len && !memcmp(want, t.buf, n)) {
		tap_ok(1, "golden %s: %zu bytes of trace match %s", name, n, path);
	} else {
		/* show the first line that differs, both versions */
		size_t i = 0, line = 1, ls = 0;
		char a[160] = "", b[160] = "";

		while (i < n && i < t.len && want[i] == t.buf[i]) {
			if (want[i] == '\n') {
				line++;
				ls = i + 1;
			}
			i++;
		}
		sscanf(want + ls, "%159[^\n]", a);
		sscanf(t.buf + ls, "%159[^\n]", b);
		tap_ok(0, "golden %s: trace differs from %s at line %zu", name, path, line);
		tap_diag("want: %s", fp ? a : "(no golden file)");
		tap_diag("got:  %s", b);
		tap_diag("if the timing change is intended: LOOM_GOLDEN_UPDATE=1 %s", "build/tests/unit/test_router_golden");
	}
out:
	free(t.buf);
	free(want);
}

int main(void)
{
	tap_plan(3);
	check("card", scenario_card);
	check("xbar", scenario_xbar);
	check("fbx_line", scenario_fbx_line);
	return tap_exit_status();
}
