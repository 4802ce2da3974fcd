// SPDX-License-Identifier: GPL-2.0
/*
 * The loom libfabric provider's rendezvous in one guest (test_ofi.sh runs
 * it with FI_PROVIDER_PATH pointing at the build): two domains on the
 * card with an endpoint each; tagged messages from 64 KiB up go by
 * rendezvous, the receiver reading them from the sender's registered
 * buffer.  A receive posted before the send and one posted after it (an
 * unexpected rendezvous), a truncated receive, FI_DISCARD by FI_CLAIM,
 * the same buffer sent eight times, and a buffer unmapped and mapped
 * again at the same address with new contents (the registration cache
 * must not send the old pages).  Every byte is checked; the provider's
 * log (FI_LOG_LEVEL=info, into a file) gives the registration cache's
 * counts: repeated sends hit, the unmapped buffer was invalidated (or,
 * on a kernel without userfaultfd, where the provider says its cache is
 * off, every send registered its buffer).
 * Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#include "ofi_util.h"
#include "tap.h"

TAP_DEFINE;

#define MIB	(1u << 20)

static struct fid_fabric *fabric;
static struct side snd, rcv;

/*
 * The send's and the receive's completions, progressing both sides.
 * Returns 0 when both came; *rerr is the receive's error (0: none) and
 * *olen its overflow length.
 */
static int both_done(struct fi_cq_tagged_entry *re, int *rerr, size_t *olen)
{
	int64_t end = now_ms() + 30000;
	int got_s = 0, got_r = 0;

	*rerr = 0;
	*olen = 0;
	while ((!got_s || !got_r) && now_ms() < end) {
		struct fi_cq_tagged_entry e;
		struct fi_cq_err_entry err = { 0 };
		ssize_t n = fi_cq_read(snd.cq, &e, 1);

		if (n == 1)
			got_s = 1;
		else if (n == -FI_EAVAIL) {
			fi_cq_readerr(snd.cq, &err, 0);
			tap_diag("the send failed: %s", fi_strerror(err.err));
			return -1;
		}
		n = fi_cq_read(rcv.cq, re, 1);
		if (n == 1) {
			got_r = 1;
		} else if (n == -FI_EAVAIL) {
			memset(&err, 0, sizeof(err));
			fi_cq_readerr(rcv.cq, &err, 0);
			*rerr = err.err;
			*olen = err.olen;
			re->len = err.len;
			got_r = 1;
		}
	}
	if (!got_s || !got_r)
		tap_diag("timed out: send %s, receive %s", got_s ? "done" : "pending",
			 got_r ? "done" : "pending");
	return got_s && got_r ? 0 : -1;
}

/* let the card deliver what was sent, with no receive posted */
static void settle(void)
{
	struct fi_cq_tagged_entry e;
	int64_t end = now_ms() + 500;

	while (now_ms() < end) {
		fi_cq_read(snd.cq, &e, 0);
		fi_cq_read(rcv.cq, &e, 0);
	}
}

static void one(const char *what, unsigned char *sbuf, size_t slen, size_t rlen,
		int seed, int recv_first)
{
	unsigned char *rbuf = malloc(rlen + 2);
	struct fi_cq_tagged_entry re = { 0 };
	size_t olen = 0;
	int rerr = 0, ok;
	long bad;

	fill(sbuf, slen, seed);
	memset(rbuf, 0xee, rlen + 2);
	if (recv_first)
		fi_trecv(rcv.ep, rbuf + 1, rlen, NULL, rcv.peer, 7, 0, NULL);
	ok = fi_tsend(snd.ep, sbuf, slen, NULL, snd.peer, 7, NULL) == 0;
	if (!recv_first) {
		settle();
		fi_trecv(rcv.ep, rbuf + 1, rlen, NULL, rcv.peer, 7, 0, NULL);
	}
	ok = ok && !both_done(&re, &rerr, &olen);
	bad = bad_byte(rbuf + 1, slen < rlen ? slen : rlen, seed);
	if (slen <= rlen)
		tap_ok(ok && !rerr && re.len == slen && bad < 0 && rbuf[0] == 0xee &&
		       rbuf[rlen + 1] == 0xee,
		       "%s: %zu bytes, every byte (received %zu, error %d, first wrong byte %ld)",
		       what, slen, (size_t)re.len, rerr, bad);
	else
		tap_ok(ok && rerr == FI_ETRUNC && olen == slen - rlen && bad < 0 &&
		       rbuf[rlen + 1] == 0xee,
		       "%s: %zu bytes into %zu: FI_ETRUNC, overflow %zu, the bytes that fit (error %d, first wrong byte %ld)",
		       what, slen, rlen, olen, rerr, bad);
	free(rbuf);
}

/*
 * The first line of the log that holds TEXT, into LINE (of LEN bytes);
 * where TEXT starts in it, or NULL
 */
static const char *log_find(const char *log, const char *text, char *line, size_t len)
{
	FILE *f = fopen(log, "r");
	const char *p = NULL;

	if (!f)
		return NULL;
	while (!p && fgets(line, (int)len, f))
		p = strstr(line, text);
	fclose(f);
	return p;
}

/* the counts of the first "registration cache of" line of the log */
static int cache_counts(const char *log, unsigned long long *regs,
			unsigned long long *hits, unsigned long long *inval)
{
	char line[512];
	const char *p = log_find(log, "registration cache of ", line, sizeof(line));

	return p && sscanf(strchr(p, ':') + 1, " %llu registrations, %llu hits, %llu invalidated",
			   regs, hits, inval) == 3;
}

int main(void)
{
	struct fi_info *hints, *info = NULL;
	char log[] = "/tmp/ofi_rdv.XXXXXX";
	unsigned long long regs = 0, hits = 0, inval = 0;
	char line[512];
	unsigned char *big = malloc(4 * MIB + 5), *a, *b;
	int fd, ret, i;

	/* the provider's log into a file: it tells the cache's counts */
	fd = mkstemp(log);
	if (fd < 0 || dup2(fd, 2) < 0)
		return 1;
	setenv("FI_LOG_LEVEL", "info", 1);
	setenv("FI_LOG_PROV", "loom", 1);
	tap_plan(1 + 4 + 8 + 2 + 1 + 1);
	hints = fi_allocinfo();
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_TAGGED;
	hints->fabric_attr->prov_name = strdup("loom");
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
	if (!ret)
		ret = fi_fabric(info->fabric_attr, &fabric, NULL);
	if (!ret)
		ret = open_side(fabric, info, &snd, FI_CQ_FORMAT_TAGGED, 0);
	if (!ret)
		ret = open_side(fabric, info, &rcv, FI_CQ_FORMAT_TAGGED, 0);
	if (!ret)
		ret = connect_sides(&snd, &rcv);
	if (!tap_ok(ret == 0, "two domains with an endpoint each (ret %d %s)", ret, fi_strerror(-ret)))
		return 1;

	one("receive posted first, rendezvous", big, 4 * MIB + 5, 4 * MIB + 5, 1, 1);
	one("unexpected rendezvous (receive posted after)", big, MIB + 3, 2 * MIB, 2, 0);
	one("truncated rendezvous", big, 300000, 100000, 3, 1);
	one("at the threshold (64 KiB)", big, 65536, 65536, 4, 1);
	for (i = 0; i < 8; i++) {
		char what[64];

		snprintf(what, sizeof(what), "the same 1 MiB buffer, send %d of 8", i + 1);
		one(what, big, MIB, MIB, 10 + i, i & 1);
	}

	/* a buffer unmapped and mapped again at the same address */
	a = mmap(NULL, 2 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	one("a mapped buffer", a, 2 * MIB, 2 * MIB, 30, 1);
	munmap(a, 2 * MIB);
	b = mmap(a, 2 * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (b == a)
		one("new memory at the unmapped buffer's address: its bytes, not the old pages'",
		    b, 2 * MIB, 2 * MIB, 31, 1);
	else
		tap_ok(0, "new memory at the unmapped buffer's address (mmap gave %p for %p)",
		       (void *)b, (void *)a);

	/* closing the domains logs their caches' counts */
	close_side(&snd);
	ret = close_side(&rcv);
	ret |= fi_close(&fabric->fid);
	tap_ok(ret == 0, "everything closes (ret %d)", ret);
	fflush(stderr);
	ret = cache_counts(log, &regs, &hits, &inval);
	if (log_find(log, "no userfaultfd", line, sizeof(line))) {
		/* a kernel without userfaultfd: the cache is off, as the provider said */
		ret = tap_ok(ret && hits == 0 && inval == 0 && regs >= 14,
			     "the sender's registration cache is off (the kernel has no userfaultfd, the provider logged it): every rendezvous registers its buffer: %llu registrations, %llu hits, %llu invalidated",
			     regs, hits, inval);
	} else {
		ret = tap_ok(ret && hits >= 7 && inval >= 1 && regs + hits >= 14,
			     "the sender's registration cache: %llu registrations, %llu hits (the same buffer again), %llu invalidated (the unmapped one)",
			     regs, hits, inval);
	}
	if (!ret) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "tail -n 20 %s | sed 's/^/# /'", log);
		fflush(stdout);
		if (system(cmd))
			tap_diag("no log");
	}
	unlink(log);
	fi_freeinfo(info);
	fi_freeinfo(hints);
	free(big);
	return tap.failed ? 1 : 0;
}
