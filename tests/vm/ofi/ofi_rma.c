// SPDX-License-Identifier: GPL-2.0
/*
 * The loom libfabric provider's RMA and atomics in one guest, through
 * libfabric's API (test_ofi.sh runs it with FI_PROVIDER_PATH pointing at
 * the build).  Two domains on the card, each with its endpoint: the
 * target's regions belong to one, the other reads and writes them through
 * the card.  What fi_getinfo() says of FI_RMA and its mr_mode; fi_mr_reg()
 * with bad arguments and unmapped memory; writes and reads of every size
 * class (bounce buffer, registered buffer, a registration of its own) with
 * every byte and the bytes around checked; fi_inject_write; fi_writedata
 * and its remote CQ data; the atomics the card has, and -FI_EOPNOTSUPP for
 * the others; FI_WRITE and FI_READ counters; and each bad key (unknown,
 * revoked, out of bounds, without the right, not 32 bits) answered by an
 * error completion with a readable text while the target stays unchanged.
 * Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "ofi_util.h"
#include "tap.h"

TAP_DEFINE;

#define TSIZE	((3u << 20) + 4096)	/* the target region */
#define GUARD	64			/* bytes checked on each side */

static struct fid_fabric *fabric;
static struct side ini, tgt;	/* initiator, target */
static unsigned char *tbuf;	/* the target's memory */
static unsigned char *snap;	/* what it should hold */

/*
 * Wait for one completion on @s's CQ, progressing the other side too.
 * Returns 1 and fills @e, -FI_EAVAIL and fills @err, or -FI_ETIMEDOUT.
 */
static ssize_t wait_cq(struct side *s, struct fi_cq_data_entry *e,
		       struct fi_cq_err_entry *err)
{
	struct side *other = s == &ini ? &tgt : &ini;
	int64_t end = now_ms() + 20000;
	struct fi_cq_data_entry dummy;

	while (now_ms() < end) {
		ssize_t n = fi_cq_read(s->cq, e, 1);

		if (n == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(s->cq, err, 0);
			return n;
		}
		if (n != -FI_EAGAIN)
			return n;
		n = fi_cq_read(other->cq, &dummy, 0);
		(void)n;
	}
	return -FI_ETIMEDOUT;
}

/* the target's bytes are what @snap says; on failure prints the first difference */
static int target_is(const char *what)
{
	for (size_t i = 0; i < TSIZE; i++) {
		if (tbuf[i] != snap[i]) {
			tap_diag("%s: target byte %zu is %#x, expected %#x", what, i,
				 tbuf[i], snap[i]);
			return 0;
		}
	}
	return 1;
}

/* one RMA that must succeed: waits for it and checks its flags */
static int rma_ok(ssize_t posted, uint64_t want_flags, const char *what)
{
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry err;
	ssize_t n;

	if (posted) {
		tap_diag("%s: posting failed: %zd %s", what, posted, fi_strerror((int)-posted));
		return 0;
	}
	n = wait_cq(&ini, &e, &err);
	if (n == -FI_EAVAIL) {
		tap_diag("%s: error completion %d %s (%s)", what, err.err, fi_strerror(err.err),
			 fi_cq_strerror(ini.cq, err.prov_errno, NULL, NULL, 0));
		return 0;
	}
	if (n != 1 || (e.flags & want_flags) != want_flags) {
		tap_diag("%s: completion %zd flags %#llx, want flags %#llx", what, n,
			 (unsigned long long)e.flags, (unsigned long long)want_flags);
		return 0;
	}
	return 1;
}

/* one RMA that must fail with @want: error entry, text, target unchanged */
static void rma_refused(ssize_t posted, int want, const char *what)
{
	struct fi_cq_data_entry e;
	struct fi_cq_err_entry err = { 0 };
	const char *text = "";
	ssize_t n = posted;

	if (!posted) {
		n = wait_cq(&ini, &e, &err);
		if (n == -FI_EAVAIL)
			text = fi_cq_strerror(ini.cq, err.prov_errno, NULL, NULL, 0);
	}
	tap_ok(n == -FI_EAVAIL && err.err == want && err.prov_errno && text && *text &&
	       target_is(what),
	       "%s: error completion %s (%d), prov_errno %d \"%s\", target unchanged (posted %zd, read %zd)",
	       what, fi_strerror(err.err), err.err, err.prov_errno, text ? text : "",
	       posted, n);
}

static void test_getinfo_and_reg(struct fi_info *info)
{
	struct fid_mr *mr = NULL;
	void *hole;
	int ret;

	ret = fi_mr_reg(tgt.dom, tbuf, 0, FI_REMOTE_WRITE, 0, 0, 0, &mr, NULL);
	tap_ok(ret == -FI_EINVAL && !mr, "fi_mr_reg of 0 bytes: -FI_EINVAL (ret %d)", ret);
	ret = fi_mr_reg(tgt.dom, tbuf, 4096, FI_REMOTE_WRITE, 8, 0, 0, &mr, NULL);
	tap_ok(ret == -FI_EINVAL && !mr,
	       "fi_mr_reg with an offset (addresses are offsets from the region's start): -FI_EINVAL (ret %d)",
	       ret);
	ret = fi_mr_reg(tgt.dom, tbuf, 4096, FI_REMOTE_WRITE, 0, 0, 1, &mr, NULL);
	tap_ok(ret == -FI_EINVAL && !mr, "fi_mr_reg with unknown flags: -FI_EINVAL (ret %d)", ret);
	/* three pages, the middle one unmapped: nothing can be mapped there meanwhile */
	hole = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap((char *)hole + 4096, 4096);
	ret = fi_mr_reg(tgt.dom, hole, 3 * 4096, FI_REMOTE_WRITE, 0, 0, 0, &mr, NULL);
	tap_ok(ret == -FI_EFAULT && !mr,
	       "fi_mr_reg of a range with an unmapped page: -FI_EFAULT %s (ret %d)",
	       fi_strerror(-ret), ret);
	munmap(hole, 4096);
	munmap((char *)hole + 2 * 4096, 4096);
	(void)info;
}

static void test_rma(void)
{
	static const struct { size_t off, len; int reg; const char *what; } w[] = {
		{ 13, 1, 0, "1 byte" },
		{ 4099, 4093, 0, "4093 bytes from unregistered memory (bounce buffer)" },
		{ 70001, 65536, 0, "64 KiB from unregistered memory (bounce buffer)" },
		{ 200003, (1u << 20) + 3, 0, "1 MiB + 3 from unregistered memory (its own registration)" },
		{ 1u << 20, (2u << 20) + 7, 1, "2 MiB + 7 from a registered buffer (no copy)" },
	};
	unsigned char *src = malloc(TSIZE), *dst = malloc(TSIZE);
	struct fid_mr *tmr, *smr, *dmr;
	uint64_t key;
	size_t i;
	int ret;

	ret = fi_mr_reg(tgt.dom, tbuf, TSIZE, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0,
			&tmr, NULL);
	if (!tap_ok(ret == 0, "fi_mr_reg of the target's %u bytes (ret %d %s)", TSIZE, ret,
		    fi_strerror(-ret)))
		exit(1);
	key = fi_mr_key(tmr);
	fi_mr_reg(ini.dom, src, TSIZE, FI_WRITE, 0, 0, 0, &smr, NULL);
	fi_mr_reg(ini.dom, dst, TSIZE, FI_READ, 0, 0, 0, &dmr, NULL);
	tap_ok(key != FI_KEY_NOTAVAIL && key <= UINT32_MAX && fi_mr_desc(tmr),
	       "the region's key is the card's (%#llx) and it has a descriptor",
	       (unsigned long long)key);

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		int ok;

		fill(src, TSIZE, (int)i + 3);
		ok = rma_ok(fi_write(ini.ep, src + 5, w[i].len, w[i].reg ? fi_mr_desc(smr) : NULL,
				     ini.peer, w[i].off, key, (void *)w[i].what), FI_RMA | FI_WRITE,
			    w[i].what);
		memcpy(snap + w[i].off, src + 5, w[i].len);
		tap_ok(ok && target_is(w[i].what),
		       "fi_write of %s at offset %zu: every byte there, none around", w[i].what,
		       w[i].off);
	}
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		long bad;
		int ok;

		memset(dst, 0xee, TSIZE);
		ok = rma_ok(fi_read(ini.ep, dst + 7, w[i].len, w[i].reg ? fi_mr_desc(dmr) : NULL,
				    ini.peer, w[i].off, key, NULL), FI_RMA | FI_READ, w[i].what);
		bad = memcmp(dst + 7, snap + w[i].off, w[i].len) ? 0 : -1;
		for (size_t j = 0; bad >= 0 && j < w[i].len; j++)
			if (dst[7 + j] != snap[w[i].off + j]) {
				bad = (long)j;
				break;
			}
		tap_ok(ok && bad < 0 && dst[6] == 0xee && dst[7 + w[i].len] == 0xee,
		       "fi_read of %s: every byte, nothing beyond (first wrong byte %ld)",
		       w[i].what, bad);
	}

	{
		struct fi_cq_data_entry e;
		struct fi_cq_err_entry err;
		uint64_t w0 = fi_cntr_read(ini.wr), r0 = fi_cntr_read(ini.rd);
		ssize_t n;
		int64_t end;

		fill(src, 100, 77);
		n = fi_inject_write(ini.ep, src, 100, ini.peer, 3000000, key);
		memset(src, 0, 100);	/* the data was taken at the call */
		fill(snap + 3000000, 100, 77);
		ret = fi_cntr_wait(ini.wr, w0 + 1, 10000);
		tap_ok(n == 0 && ret == 0 && target_is("inject"),
		       "fi_inject_write of 100 bytes: the FI_WRITE counter counts it and the bytes land (ret %zd, wait %d, counter %llu)",
		       n, ret, (unsigned long long)fi_cntr_read(ini.wr));
		tap_ok(fi_cntr_read(ini.wr) == w0 + 1 && fi_cntr_read(ini.rd) == r0 &&
		       fi_cq_read(ini.cq, &e, 1) == -FI_EAGAIN,
		       "an inject makes no CQ entry and the FI_READ counter stays (write %llu, read %llu)",
		       (unsigned long long)(fi_cntr_read(ini.wr) - w0),
		       (unsigned long long)(fi_cntr_read(ini.rd) - r0));

		fill(src, 4000, 91);
		memcpy(snap + 10, src, 4000);
		n = fi_writedata(ini.ep, src, 4000, NULL, 0xfeedbeefcafe0001ull, ini.peer, 10,
				 key, (void *)0x77);
		ret = rma_ok(n, FI_RMA | FI_WRITE, "fi_writedata");
		end = now_ms() + 10000;
		do
			n = fi_cq_read(tgt.cq, &e, 1);
		while (n == -FI_EAGAIN && now_ms() < end);
		tap_ok(ret && n == 1 && (e.flags & (FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA)) ==
		       (FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA) &&
		       e.data == 0xfeedbeefcafe0001ull && target_is("writedata"),
		       "fi_writedata: the target's CQ has FI_REMOTE_CQ_DATA %#llx (flags %#llx) once the bytes are there (read %zd)",
		       (unsigned long long)e.data, (unsigned long long)e.flags, n);
		(void)err;
	}
	fi_close(&smr->fid);
	fi_close(&dmr->fid);
	fi_close(&tmr->fid);
	free(src);
	free(dst);
}

static void test_atomics(void)
{
	uint64_t *word = (uint64_t *)(tbuf + 2048), v, res = 0, cmp;
	struct fid_mr *tmr;
	uint64_t key, r0;
	size_t count = 9;
	ssize_t n;
	int ret;

	fi_mr_reg(tgt.dom, tbuf, TSIZE, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0, &tmr, NULL);
	key = fi_mr_key(tmr);
	*word = 1000;
	memcpy(snap + 2048, word, 8);

	ret = fi_atomicvalid(ini.ep, FI_UINT64, FI_SUM, &count);
	tap_ok(ret == 0 && count == 1, "fi_atomicvalid(FI_UINT64, FI_SUM): valid, 1 element (ret %d, count %zu)",
	       ret, count);
	ret = fi_fetch_atomicvalid(ini.ep, FI_INT64, FI_ATOMIC_READ, &count) ||
	      fi_compare_atomicvalid(ini.ep, FI_UINT64, FI_CSWAP, &count);
	tap_ok(ret == 0, "fetching FI_ATOMIC_READ and compare FI_CSWAP are valid");
	count = 9;
	ret = fi_atomicvalid(ini.ep, FI_UINT64, FI_MIN, &count);
	tap_ok(ret == -FI_EOPNOTSUPP && count == 0 &&
	       fi_atomicvalid(ini.ep, FI_UINT32, FI_SUM, &count) == -FI_EOPNOTSUPP &&
	       fi_compare_atomicvalid(ini.ep, FI_UINT64, FI_CSWAP_LE, &count) == -FI_EOPNOTSUPP,
	       "FI_MIN, 32-bit sums and FI_CSWAP_LE are not the card's: -FI_EOPNOTSUPP (ret %d)", ret);
	v = 5;
	n = fi_atomic(ini.ep, &v, 1, NULL, ini.peer, 2048, key, FI_UINT64, FI_MAX, NULL);
	tap_ok(n == -FI_EOPNOTSUPP && *word == 1000,
	       "fi_atomic(FI_MAX): -FI_EOPNOTSUPP, nothing sent (ret %zd)", n);

	v = 5;
	ret = rma_ok(fi_atomic(ini.ep, &v, 1, NULL, ini.peer, 2048, key, FI_UINT64, FI_SUM, NULL),
		     FI_ATOMIC | FI_WRITE, "fi_atomic sum");
	tap_ok(ret && *word == 1005, "fi_atomic(FI_SUM, 5): 1000 -> %llu", (unsigned long long)*word);
	r0 = fi_cntr_read(ini.rd);
	v = (uint64_t)-10;
	ret = rma_ok(fi_fetch_atomic(ini.ep, &v, 1, NULL, &res, NULL, ini.peer, 2048, key,
				     FI_INT64, FI_SUM, NULL), FI_ATOMIC | FI_READ, "fetch sum");
	tap_ok(ret && res == 1005 && *word == 995 && fi_cntr_read(ini.rd) == r0 + 1,
	       "fi_fetch_atomic(FI_SUM, -10): fetched %llu, now %llu, the FI_READ counter counts it",
	       (unsigned long long)res, (unsigned long long)*word);
	ret = rma_ok(fi_fetch_atomic(ini.ep, NULL, 1, NULL, &res, NULL, ini.peer, 2048, key,
				     FI_UINT64, FI_ATOMIC_READ, NULL), FI_ATOMIC | FI_READ, "read");
	tap_ok(ret && res == 995 && *word == 995, "fi_fetch_atomic(FI_ATOMIC_READ): %llu, unchanged",
	       (unsigned long long)res);
	v = 0x1234567890abcdefull;
	ret = rma_ok(fi_fetch_atomic(ini.ep, &v, 1, NULL, &res, NULL, ini.peer, 2048, key,
				     FI_UINT64, FI_ATOMIC_WRITE, NULL), FI_ATOMIC | FI_READ, "swap");
	tap_ok(ret && res == 995 && *word == v, "fi_fetch_atomic(FI_ATOMIC_WRITE) swaps: old %llu",
	       (unsigned long long)res);
	cmp = 1;
	v = 42;
	ret = rma_ok(fi_compare_atomic(ini.ep, &v, 1, NULL, &cmp, NULL, &res, NULL, ini.peer,
				       2048, key, FI_UINT64, FI_CSWAP, NULL), FI_ATOMIC | FI_READ,
		     "cswap miss");
	tap_ok(ret && res == 0x1234567890abcdefull && *word == 0x1234567890abcdefull,
	       "fi_compare_atomic(FI_CSWAP) with the wrong compare: no swap, old value fetched");
	cmp = 0x1234567890abcdefull;
	ret = rma_ok(fi_compare_atomic(ini.ep, &v, 1, NULL, &cmp, NULL, &res, NULL, ini.peer,
				       2048, key, FI_UINT64, FI_CSWAP, NULL), FI_ATOMIC | FI_READ,
		     "cswap hit");
	tap_ok(ret && res == cmp && *word == 42,
	       "fi_compare_atomic(FI_CSWAP) with the right compare: swapped to %llu",
	       (unsigned long long)*word);
	memcpy(snap + 2048, word, 8);
	n = fi_atomic(ini.ep, &v, 2, NULL, ini.peer, 2048, key, FI_UINT64, FI_SUM, NULL);
	tap_ok(n == -FI_EINVAL && target_is("count 2"),
	       "fi_atomic of 2 elements (fi_atomicvalid said 1): -FI_EINVAL (ret %zd)", n);
	fi_close(&tmr->fid);
}

static void test_bad_keys(void)
{
	unsigned char *src = malloc(8192);
	struct fid_mr *rw, *ro, *gone;
	uint64_t key, key_ro, key_gone, v = 7, res;

	fill(src, 8192, 5);
	fi_mr_reg(tgt.dom, tbuf, TSIZE, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0, &rw, NULL);
	fi_mr_reg(tgt.dom, tbuf + 8192, 8192, FI_REMOTE_READ, 0, 0, 0, &ro, NULL);
	fi_mr_reg(tgt.dom, tbuf, 8192, FI_REMOTE_WRITE, 0, 0, 0, &gone, NULL);
	key = fi_mr_key(rw);
	key_ro = fi_mr_key(ro);
	key_gone = fi_mr_key(gone);
	fi_close(&gone->fid);

	rma_refused(fi_write(ini.ep, src, 100, NULL, ini.peer, 0, key ^ 0x00ff00ffu, NULL),
		    FI_EKEYREJECTED, "fi_write with an unknown key");
	rma_refused(fi_write(ini.ep, src, 100, NULL, ini.peer, 0, key_gone, NULL),
		    FI_EKEYREJECTED, "fi_write with the key of a closed region");
	rma_refused(fi_write(ini.ep, src, 100, NULL, ini.peer, TSIZE - 50, key, NULL),
		    FI_EINVAL, "fi_write across the region's end");
	rma_refused(fi_write(ini.ep, src, 100, NULL, ini.peer, 0, key_ro, NULL),
		    FI_EACCES, "fi_write into a region without FI_REMOTE_WRITE");
	rma_refused(fi_atomic(ini.ep, &v, 1, NULL, ini.peer, 0, key_ro, FI_UINT64, FI_SUM, NULL),
		    FI_EACCES, "fi_atomic on a region without FI_REMOTE_WRITE");
	rma_refused(fi_read(ini.ep, src, 100, NULL, ini.peer, 0, key_gone, NULL),
		    FI_EKEYREJECTED, "fi_read with the key of a closed region");
	rma_refused(fi_fetch_atomic(ini.ep, &v, 1, NULL, &res, NULL, ini.peer, TSIZE, key,
				    FI_UINT64, FI_SUM, NULL),
		    FI_EINVAL, "fi_fetch_atomic past the region's end");
	rma_refused(fi_write(ini.ep, src, 100, NULL, ini.peer, 0, key | (1ull << 40), NULL),
		    FI_EKEYREJECTED, "fi_write with a key above 32 bits");
	tap_ok(fi_cntr_readerr(ini.wr) >= 6 && fi_cntr_readerr(ini.rd) >= 2,
	       "the FI_WRITE and FI_READ counters count the failures (%llu, %llu)",
	       (unsigned long long)fi_cntr_readerr(ini.wr),
	       (unsigned long long)fi_cntr_readerr(ini.rd));
	fi_close(&ro->fid);
	fi_close(&rw->fid);
	free(src);
}

int main(void)
{
	struct fi_info *hints = fi_allocinfo(), *info = NULL;
	int ret;

	tap_plan(4 + 4 + 15 + 11 + 9 + 1);
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_RMA | FI_ATOMIC | FI_MSG;
	hints->fabric_attr->prov_name = strdup("loom");
	/* what Open MPI's btl/ofi asks for */
	hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
	if (!tap_ok(ret == 0 && info && (info->caps & (FI_RMA | FI_ATOMIC)) == (FI_RMA | FI_ATOMIC) &&
		    info->domain_attr->mr_mode == (FI_MR_PROV_KEY | FI_MR_ALLOCATED) &&
		    info->tx_attr->rma_iov_limit == 1,
		    "fi_getinfo with FI_RMA | FI_ATOMIC: mr_mode FI_MR_PROV_KEY | FI_MR_ALLOCATED, offsets not addresses (ret %d, mr_mode %#x)",
		    ret, info ? info->domain_attr->mr_mode : -1))
		return 1;
	tbuf = mmap(NULL, TSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	snap = malloc(TSIZE);
	fill(tbuf, TSIZE, 1);
	memcpy(snap, tbuf, TSIZE);
	ret = fi_fabric(info->fabric_attr, &fabric, NULL);
	if (!ret)
		ret = open_side(fabric, info, &ini, FI_CQ_FORMAT_DATA, 1);
	if (!ret)
		ret = open_side(fabric, info, &tgt, FI_CQ_FORMAT_DATA, 1);
	if (!ret)
		ret = connect_sides(&ini, &tgt);
	if (!tap_ok(ret == 0, "two domains with an endpoint each, FI_WRITE and FI_READ counters bound (ret %d %s)",
		    ret, fi_strerror(-ret)))
		return 1;
	{
		struct fi_atomic_attr aa = { 0 };

		ret = fi_query_atomic(ini.dom, FI_UINT64, FI_CSWAP, &aa, FI_COMPARE_ATOMIC);
		tap_ok(ret == 0 && aa.size == 8 && aa.count == 1 &&
		       fi_query_atomic(ini.dom, FI_FLOAT, FI_SUM, &aa, 0) == -FI_EOPNOTSUPP,
		       "fi_query_atomic: 64-bit compare-and-swap, 8 bytes, 1 element; float sums not (ret %d)",
		       ret);
	}
	{
		struct fid_cntr *c;
		struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP };

		fi_cntr_open(ini.dom, &ca, &c, NULL);
		ret = fi_ep_bind(ini.ep, &c->fid, FI_REMOTE_WRITE);
		tap_ok(ret == -FI_EOPBADSTATE || ret == -FI_EINVAL,
		       "binding a counter to an enabled endpoint or for FI_REMOTE_WRITE is refused (ret %d)",
		       ret);
		fi_close(&c->fid);
	}
	test_getinfo_and_reg(info);
	test_rma();
	test_atomics();
	test_bad_keys();
	close_side(&ini);
	close_side(&tgt);
	ret = fi_close(&fabric->fid);
	tap_ok(ret == 0, "everything closes (ret %d)", ret);
	fi_freeinfo(info);
	fi_freeinfo(hints);
	munmap(tbuf, TSIZE);
	free(snap);
	return tap.failed ? 1 : 0;
}
