// SPDX-License-Identifier: GPL-2.0
/*
 * loom-card-bench: figures for the card emulator, not a pass/fail test.
 *
 * 1. Forwarding rate (64-byte packets over one cable with the link layer
 *    on, per core).  Two loom-card processes (the optimised
 *    build, not the sanitizer one) on one cable; card 0's fake host keeps
 *    the command rings of @contexts contexts full of 64-byte puts to card
 *    1 -- one 64-byte request packet over the cable and one PUT_ACK
 *    packet back per put -- submitting and consuming in batches with one
 *    doorbell kick per batch, as a driver would.  Printed: wall-clock
 *    rate, the CPU time the two card processes used (utime + stime from
 *    /proc), and packets over the cable (both directions) per second of
 *    card CPU time: the forwarding rate per core.  Run once with the
 *    card's defaults and once with deeper buffers (--vc-buffers,
 *    --replay-frames) and more contexts, which lets every system call
 *    carry more frames.
 * 2. Ceilings ("ceiling", -j for one JSON object): the same two processes
 *    with the card's defaults and one context, card 0's fake host putting
 *    1 MiB at a time to card 1, then 8 bytes at a time.  Printed: payload
 *    and puts per wall second, and per CPU second of the busier card,
 *    which is what the pair could do with a core per card and nothing else
 *    on it: the most a put stream through two cycle-level cards can reach,
 *    whatever the hosts do.  make bench prints them beside the cable's raw
 *    throughput and the guest's doorbell-posting rate.
 * 3. Memory: resident set size of a card with 8 ports (uncabled) after
 *    start-up, and of the two cards of each forwarding run after it.
 *
 * The cards run without --strict-registers, as a card in service does;
 * LOOM_BENCH_STRICT=1 turns it on, to measure what the checking costs.
 *
 * Build and run: make -C fpga_bitstreams bench && build/bin/loom-card-bench
 */
#include "fabric.h"
#include "lockstep.h"
#include "proc_rss.h"
#include "tap.h"
#include "cpu_clock.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX0		8
#define MAX_CTX		8
#define KEY1		0xbe7c4u
#define PKT		64
#define SIGNAL_EVERY	64
#define RING_LOG2	12
#define BW_PUT		(1u << 20)	/* the bandwidth ceiling's put, as make bench's largest */
#define BW_PUTS		SIGNAL_EVERY
#define RATE_PUTS	(1u << 16)	/* the message rate ceiling's 8-byte puts */
#define PUT_WINDOW	(256 * PKT)	/* smaller puts go round this much of the target segment */

struct run_cfg {
	const char *name;
	const char *vc_buffers;
	const char *replay_frames;
	unsigned int contexts;
	uint32_t puts;		/* per context, a multiple of SIGNAL_EVERY */
	uint32_t put_bytes;	/* at most BW_PUT */
};

struct bench_ctx {
	struct fh_ctx c;
	uint32_t put_bytes;
	uint32_t submitted, done;
};

/* utime + stime of @pid in seconds, -1 if unreadable */
static double cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = (ssize_t)fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the command name may contain blanks */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Fill the command ring of @b with puts, publish them with one kick. */
static void submit_batch(struct bench_ctx *b, uint32_t total)
{
	struct fakehost *fh = b->c.fh;
	uint32_t entries = 1u << b->c.cmdq_log2;
	uint32_t consumed = fh_rd32(fh, fh_ctx_reg(fh, b->c.idx, LOOM_CTXR_CMD_CI));
	uint32_t n = 0;

	while (b->submitted < total && b->c.pi - consumed < entries) {
		struct loom_cmd c = {
			.opcode = LOOM_OP_PUT, .dst_ctx = CTX0, .dst_node = 1,
			.tag = b->submitted, .length = b->put_bytes,
			.remote_off = b->put_bytes < PUT_WINDOW ?
				      (uint64_t)(b->submitted % (PUT_WINDOW / b->put_bytes)) * b->put_bytes : 0,
			.flags = (b->submitted + 1) % SIGNAL_EVERY ? 0 : LOOM_CMD_F_SIGNAL,
		};

		memcpy(fh->ram + b->c.cmdq + (uint64_t)(b->c.pi & (entries - 1)) * LOOM_CMD_SIZE,
		       &c, sizeof(c));
		b->c.pi++;
		b->submitted++;
		n++;
	}
	if (n) {
		__atomic_thread_fence(__ATOMIC_RELEASE);
		fh_wr32(fh, fh->db_area + b->c.idx * LOOM_DB_PAGE_SIZE + LOOM_DB_CMD_PI, b->c.pi);
		fh_kick(fh, LOOM_KICK_DOORBELL);
	}
}

/* Consume every completion posted; -1 on an error completion. */
static int drain(struct bench_ctx *b, bool *moved)
{
	struct fakehost *fh = b->c.fh;
	uint32_t entries = 1u << b->c.cq_log2, n = 0;

	for (;;) {
		uint8_t *slot = fh->ram + b->c.cq + (uint64_t)(b->c.ci & (entries - 1)) * LOOM_CQE_SIZE;
		uint32_t flags = __atomic_load_n((uint32_t *)(void *)(slot + offsetof(struct loom_cqe, flags)),
						 __ATOMIC_ACQUIRE);
		struct loom_cqe e;

		if ((flags & LOOM_CQE_PHASE) != loom_cq_phase(b->c.ci, b->c.cq_log2))
			break;
		memcpy(&e, slot, sizeof(e));
		b->c.ci++;
		n++;
		if (e.status != LOOM_CQE_ST_OK) {
			fprintf(stderr, "loom-card-bench: put %llu failed with status %u\n",
				(unsigned long long)e.tag, e.status);
			return -1;
		}
		b->done += SIGNAL_EVERY;
	}
	if (n) {
		fh_wr32(fh, fh->db_area + b->c.idx * LOOM_DB_PAGE_SIZE + LOOM_DB_CQ_CI, b->c.ci);
		fh_kick(fh, LOOM_KICK_DOORBELL);
		*moved = true;
	}
	return 0;
}

static void wait_irq(struct fakehost *fh, int ms)
{
	struct pollfd pfd = { .fd = fh->irq_fd[LOOM_VEC_CQ], .events = POLLIN };
	uint64_t n;

	if (poll(&pfd, 1, ms) > 0 && read(fh->irq_fd[LOOM_VEC_CQ], &n, sizeof(n)) < 0) {
		/* nothing to drain */
	}
}

/* fabric_init(), the cards without strict checking unless asked */
static int bench_fabric_init(struct fabric *f, unsigned int watchdog_s)
{
	int err = fabric_init(f, watchdog_s);

	f->lax_registers = !getenv("LOOM_BENCH_STRICT");
	return err;
}

/* What one run of puts between two card processes measured. */
struct run_figures {
	uint64_t puts;			/* completed */
	uint64_t ms;			/* wall time */
	double cpu[2];			/* CPU seconds of card 0 and card 1 */
	long rss_kib[2];		/* after the run */
};

/*
 * Two loom-card processes on one cable; card 0's fake host keeps the
 * command rings of @cfg's contexts full of puts to card 1.  0 when every
 * put completed, with the figures in @out.
 */
static int put_stream(const struct run_cfg *cfg, struct run_figures *out)
{
	const char *more[] = { "--vc-buffers", cfg->vc_buffers,
			       "--replay-frames", cfg->replay_frames, NULL };
	static struct bench_ctx src[MAX_CTX];
	struct fabric f;
	struct fh_ctx dst;
	uint64_t t0, done = 0, total = (uint64_t)cfg->puts * cfg->contexts;
	double cpu0, cpu1;
	bool ok = true;

	if (bench_fabric_init(&f, 300) || fabric_start_ring_ctl(&f, 2, more) ||
	    fh_ctx_create(&f.fh[1], &dst, CTX0, KEY1, 6, 6, BW_PUT) != LOOM_ADMIN_E_OK) {
		fprintf(stderr, "loom-card-bench: fabric setup failed\n");
		fabric_stop();
		return -1;
	}
	for (unsigned int i = 0; i < cfg->contexts; i++) {
		memset(&src[i], 0, sizeof(src[i]));
		src[i].put_bytes = cfg->put_bytes;
		if (fh_ctx_create(&f.fh[0], &src[i].c, CTX0 + i, KEY1, RING_LOG2, RING_LOG2,
				  cfg->put_bytes < (1u << 14) ? 1u << 14 : cfg->put_bytes) != LOOM_ADMIN_E_OK) {
			fprintf(stderr, "loom-card-bench: context %u setup failed\n", CTX0 + i);
			fabric_stop();
			return -1;
		}
	}
	cpu0 = cpu_seconds(f.pid[0]);
	cpu1 = cpu_seconds(f.pid[1]);
	t0 = fh_now_ms();
	while (ok && done < total && fh_now_ms() - t0 < 120000) {
		bool moved = false;

		done = 0;
		for (unsigned int i = 0; i < cfg->contexts; i++) {
			if (drain(&src[i], &moved) < 0)
				ok = false;
			submit_batch(&src[i], cfg->puts);
			done += src[i].done;
		}
		if (!moved && done < total)
			wait_irq(&f.fh[0], 5);
	}
	out->ms = fh_now_ms() - t0;
	out->puts = done;
	out->cpu[0] = cpu_seconds(f.pid[0]) - cpu0;
	out->cpu[1] = cpu_seconds(f.pid[1]) - cpu1;
	out->rss_kib[0] = proc_rss_kib(f.pid[0]);
	out->rss_kib[1] = proc_rss_kib(f.pid[1]);
	fabric_stop();
	if (ok && done != total)
		fprintf(stderr, "loom-card-bench: %llu of %llu puts of %u B completed in %llu ms\n",
			(unsigned long long)done, (unsigned long long)total, cfg->put_bytes,
			(unsigned long long)out->ms);
	return ok && done == total ? 0 : -1;
}

static int forward_rate(const struct run_cfg *cfg)
{
	struct run_figures r;
	double cpu, pkts;
	int err = put_stream(cfg, &r);

	cpu = r.cpu[0] + r.cpu[1];
	pkts = 2.0 * (double)r.puts;	/* a request and its PUT_ACK over the cable */
	printf("forwarding, 1 cable, link layer on, %s (--vc-buffers %s --replay-frames %s, %u context%s):\n",
	       cfg->name, cfg->vc_buffers, cfg->replay_frames, cfg->contexts,
	       cfg->contexts == 1 ? "" : "s");
	printf("  %llu puts of %u B in %llu ms: %.0f puts/s, %.0f packets/s over the cable (both ways), %.1f MB/s payload\n",
	       (unsigned long long)r.puts, cfg->put_bytes, (unsigned long long)r.ms,
	       r.ms ? (double)r.puts * 1000.0 / (double)r.ms : 0.0,
	       r.ms ? pkts * 1000.0 / (double)r.ms : 0.0,
	       r.ms ? (double)r.puts * cfg->put_bytes / 1000.0 / (double)r.ms : 0.0);
	printf("  card CPU time: card 0 %.2f s, card 1 %.2f s; per core: %.0f packets/s (packets over the cable / CPU s of both cards), %.0f packets/s handled per card CPU s (each card sends and receives every one)\n",
	       r.cpu[0], r.cpu[1], cpu > 0 ? pkts / cpu : 0.0, cpu > 0 ? 2.0 * pkts / cpu : 0.0);
	printf("  memory after the run: card 0 RSS %ld KiB, card 1 RSS %ld KiB (2 ports each)\n",
	       r.rss_kib[0], r.rss_kib[1]);
	fflush(stdout);
	return err;
}

/* @amount (bytes or puts) of run @r in millions per wall second */
static double per_wall_second(const struct run_figures *r, double amount)
{
	return r->ms ? amount / 1000.0 / (double)r->ms : 0.0;
}

/* @amount of run @r in millions per CPU second of the busier card */
static double per_busier_cpu_second(const struct run_figures *r, double amount)
{
	double busier = r->cpu[0] > r->cpu[1] ? r->cpu[0] : r->cpu[1];

	return busier > 0 ? amount / 1e6 / busier : 0.0;
}

/*
 * The cards' ceilings, with no host in the way: 1 MiB puts (payload per
 * second) and 8-byte puts (puts per second) from one context with the
 * card's defaults, each over wall time and over the CPU time of the
 * busier card, which is what the pair could do with a core per card and
 * nothing else on it.
 */
static int ceiling(bool json)
{
	static const struct run_cfg bw_run = { "card defaults", "8", "64", 1, BW_PUTS, BW_PUT };
	static const struct run_cfg rate_run = { "card defaults", "8", "64", 1, RATE_PUTS, 8 };
	struct run_figures bw, rate;
	double bw_cpu, bw_wall, rate_cpu, rate_wall;

	if (put_stream(&bw_run, &bw) || put_stream(&rate_run, &rate))
		return -1;
	bw_wall = per_wall_second(&bw, (double)bw.puts * BW_PUT);
	bw_cpu = per_busier_cpu_second(&bw, (double)bw.puts * BW_PUT);
	rate_wall = per_wall_second(&rate, (double)rate.puts);
	rate_cpu = per_busier_cpu_second(&rate, (double)rate.puts);
	if (json) {
		printf("{\"put_bytes\": %u, \"puts\": %llu, \"wall_ms\": %llu, \"cpu_card0\": %.3f, "
		       "\"cpu_card1\": %.3f, \"bw_wall\": %.2f, \"bw\": %.2f, \"rate_puts\": %llu, "
		       "\"rate_wall_ms\": %llu, \"msg_rate_wall\": %.4f, \"msg_rate\": %.4f}\n",
		       BW_PUT, (unsigned long long)bw.puts, (unsigned long long)bw.ms, bw.cpu[0],
		       bw.cpu[1], bw_wall, bw_cpu, (unsigned long long)rate.puts,
		       (unsigned long long)rate.ms, rate_wall, rate_cpu);
		return 0;
	}
	printf("ceilings of the cards, 1 cable, link layer on, card defaults (--vc-buffers 8 --replay-frames 64), one context:\n");
	printf("  %llu puts of %u B in %llu ms: %.1f MB/s payload; card CPU time: card 0 %.2f s, card 1 %.2f s; %.1f MB/s payload per CPU second of the busier card\n",
	       (unsigned long long)bw.puts, BW_PUT, (unsigned long long)bw.ms, bw_wall, bw.cpu[0],
	       bw.cpu[1], bw_cpu);
	printf("  %llu puts of 8 B in %llu ms: %.4f M puts/s; card CPU time: card 0 %.2f s, card 1 %.2f s; %.4f M puts/s per CPU second of the busier card\n",
	       (unsigned long long)rate.puts, (unsigned long long)rate.ms, rate_wall, rate.cpu[0],
	       rate.cpu[1], rate_cpu);
	fflush(stdout);
	return 0;
}

static int memory(void)
{
	const char *extra[] = { "--ports", "8", NULL };
	struct fabric f;
	long kib;

	if (bench_fabric_init(&f, 60) || fabric_start_card(&f, 0, extra) || fabric_attach(&f, 0)) {
		fabric_stop();
		return -1;
	}
	kib = proc_rss_kib(f.pid[0]);
	printf("memory: a card with 8 ports, RSS %ld KiB after start-up\n", kib);
	fabric_stop();
	return kib > 0 ? 0 : -1;
}

/* ---- zero load: one packet in flight ------------------------------------ */

#define ZERO_PUTS	2000
#define ZERO_CTX	3
#define ZERO_SEG	(1u << 16)

/*
 * Two cards of the lockstep harness with @ram bytes of host memory each,
 * port 0 of card 0 cabled to port 1 of card 1, routed to each other and
 * trained; NULL (with a message naming @what) if that fails.
 */
static struct lockstep *two_cards(uint64_t ram, const char *what)
{
	struct lockstep *ls = calloc(1, sizeof(*ls));
	char err[256];

	if (!ls)
		return NULL;
	if (ls_init(ls, 2, 2, ram, NULL, err, sizeof(err)) ||
	    ls_cable(ls, 0, 0, 1, 1, 1, err, sizeof(err))) {
		fprintf(stderr, "loom-card-bench: %s: %s\n", what, err);
		goto fail;
	}
	card_set_route(&ls->c[0]->card, 1, 0);
	card_set_route(&ls->c[1]->card, 0, 1);
	if (!ls_train(ls, 1000000)) {
		fprintf(stderr, "loom-card-bench: %s: the link did not train\n", what);
		goto fail;
	}
	return ls;
fail:
	ls_free(ls);
	free(ls);
	return NULL;
}

/* One 8-byte put from card 0 to card 1 with its completion; false if it failed. */
__attribute__((noinline)) static bool zero_put(struct lockstep *ls, struct fh_ctx *ctx,
					       uint32_t tag)
{
	struct loom_cmd put = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL,
		.dst_ctx = ZERO_CTX, .dst_node = 1, .tag = tag,
		.local_off = 0, .remote_off = 4096, .length = 8, .key = KEY1,
	};
	struct loom_cqe e;

	if (!fh_submit(ctx, &put))
		return false;
	while (fh_poll_cqe(ctx, &e) != 1) {
		uint64_t next = ls_next_event(ls);

		if (next == UINT64_MAX)
			return false;
		/* over the idle cycles to the next edge, then that edge */
		ls_run(ls, next > ls->cycle ? next - ls->cycle : 1, false);
	}
	return e.status == LOOM_CQE_ST_OK && e.tag == tag;
}

static int zero_load(void)
{
	struct lockstep *ls = two_cards(4u << 20, "zero load");
	struct fh_ctx ctx[2];
	uint64_t c0, s0;
	double t0, t;
	int rc = -1;

	if (!ls)
		return -1;
	for (unsigned int i = 0; i < 2; i++)
		if (fh_ctx_create(&ls->c[i]->fh, &ctx[i], ZERO_CTX, KEY1, 8, 9, ZERO_SEG) !=
		    LOOM_ADMIN_E_OK) {
			fprintf(stderr, "loom-card-bench: zero load: card %u: context enable failed\n", i);
			goto out;
		}
	/* one to warm up, then the measured ones */
	if (!zero_put(ls, &ctx[0], 0))
		goto failed;
	c0 = ls->cycle;
	s0 = ls->steps;
	t0 = process_cpu_seconds();
	for (uint32_t k = 1; k <= ZERO_PUTS; k++)
		if (!zero_put(ls, &ctx[0], k))
			goto failed;
	t = process_cpu_seconds() - t0;
	printf("zero load, 2 cards in one process (lockstep), 1 cable, one 8-byte put with completion at a time:\n");
	printf("  %u puts: %.1f cycles per put, %.1f edges stepped per put (each steps both cards; the other cycles skipped), %.2f us CPU per put, %.0f ns per edge\n",
	       ZERO_PUTS, (double)(ls->cycle - c0) / ZERO_PUTS, (double)(ls->steps - s0) / ZERO_PUTS,
	       t / ZERO_PUTS * 1e6, t / (double)(ls->steps - s0) * 1e9);
	fflush(stdout);
	rc = 0;
	goto out;
failed:
	fprintf(stderr, "loom-card-bench: zero load: a put did not complete OK\n");
out:
	ls_free(ls);
	free(ls);
	return rc;
}

/* ---- the model under load: the forwarding run without the transport ---- */

#define MODEL_PUTS	(1u << 15)	/* a multiple of SIGNAL_EVERY */
#define MODEL_CHUNK	256		/* cycles run between two looks at the rings */

/*
 * The forwarding run's traffic (64-byte puts from card 0 to card 1, the
 * command ring kept full, completions every SIGNAL_EVERY puts) on two
 * cards of the lockstep harness, cabled by its in-process wire: what the
 * cycle-level model costs per packet when no socket, wake-up or wall
 * clock is involved.  Deterministic: the cycles, edges and link counters
 * printed are the same on every run of the same model.
 */
static int model_load(void)
{
	struct lockstep *ls = two_cards(16u << 20, "model");
	struct bench_ctx src;
	struct fh_ctx dst;
	uint64_t c0, s0;
	double t0, t;
	int rc = -1;

	if (!ls)
		return -1;
	memset(&src, 0, sizeof(src));
	src.put_bytes = PKT;
	if (fh_ctx_create(&ls->c[1]->fh, &dst, CTX0, KEY1, 6, 6, 1u << 16) != LOOM_ADMIN_E_OK ||
	    fh_ctx_create(&ls->c[0]->fh, &src.c, CTX0, KEY1, RING_LOG2, RING_LOG2, 1u << 14) !=
	    LOOM_ADMIN_E_OK) {
		fprintf(stderr, "loom-card-bench: model: context setup failed\n");
		goto out;
	}
	c0 = ls->cycle;
	s0 = ls->steps;
	t0 = process_cpu_seconds();
	while (src.done < MODEL_PUTS) {
		bool moved = false;

		if (drain(&src, &moved) < 0)
			goto out;
		submit_batch(&src, MODEL_PUTS);
		if (ls_next_event(ls) == UINT64_MAX && !moved) {
			fprintf(stderr, "loom-card-bench: model: idle with %u of %u puts done\n",
				src.done, MODEL_PUTS);
			goto out;
		}
		ls_run(ls, MODEL_CHUNK, true);
	}
	t = process_cpu_seconds() - t0;
	printf("model under load, 2 cards in one process (lockstep), 1 cable, the forwarding run's 64-byte puts:\n");
	printf("  %u puts in %llu cycles (%.2f cycles per put), %llu edges stepped (%.2f per packet over the cable), %.3f us CPU per packet, %.0f packets/s per core\n",
	       MODEL_PUTS, (unsigned long long)(ls->cycle - c0),
	       (double)(ls->cycle - c0) / MODEL_PUTS, (unsigned long long)(ls->steps - s0),
	       (double)(ls->steps - s0) / (2.0 * MODEL_PUTS), t / (2.0 * MODEL_PUTS) * 1e6,
	       t > 0 ? 2.0 * MODEL_PUTS / t : 0.0);
	for (unsigned int i = 0; i < 2; i++) {
		const struct link_unit *l = card_port_link(&ls->c[i]->card, i);

		printf("  card %u link: tx_frames %llu rx_frames %llu tx_bytes %llu acks_piggybacked %llu status_frames %llu credit_starved_cycles %llu replay_full_cycles %llu\n",
		       i, (unsigned long long)l->cnt.tx_frames, (unsigned long long)l->cnt.rx_frames,
		       (unsigned long long)l->cnt.tx_bytes, (unsigned long long)l->cnt.acks_piggybacked,
		       (unsigned long long)l->cnt.status_frames,
		       (unsigned long long)l->cnt.credit_starved_cycles,
		       (unsigned long long)l->cnt.replay_full_cycles);
	}
	fflush(stdout);
	rc = 0;
out:
	ls_free(ls);
	free(ls);
	return rc;
}

/* The optimised loom-card beside this program ($(BUILD)/bin), unless LOOM_CARD names one. */
static void use_card_beside(void)
{
	char self[512], *slash;
	ssize_t n;

	if (getenv("LOOM_CARD"))
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 16);
	if (n <= 0)
		return;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash) {
		strcpy(slash + 1, "loom-card");
		setenv("LOOM_CARD", self, 1);
	}
}

int main(int argc, char **argv)
{
	static const struct run_cfg runs[] = {
		{ "card defaults", "8", "64", 1, 1u << 18, PKT },
		{ "deep buffers", "64", "1024", 4, 1u << 18, PKT },
	};
	int rc = 0;

	if (argc > 1 && !strcmp(argv[1], "zero") && argc == 2)
		return zero_load() ? 1 : 0;
	if (argc > 1 && !strcmp(argv[1], "model") && argc == 2)
		return model_load() ? 1 : 0;
	if (argc > 1 && !strcmp(argv[1], "ceiling") &&
	    (argc == 2 || (argc == 3 && !strcmp(argv[2], "-j")))) {
		use_card_beside();
		return ceiling(argc == 3) ? 1 : 0;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: loom-card-bench [zero | model | ceiling [-j]]\n");
		return 2;
	}
	rc |= zero_load();
	rc |= model_load();
	use_card_beside();
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		rc |= forward_rate(&runs[i]);
	rc |= ceiling(false);
	rc |= memory();
	return rc ? 1 : 0;
}
