// SPDX-License-Identifier: GPL-2.0
/*
 * The loom libfabric provider in one guest, through libfabric's API
 * (test_ofi.sh runs it with FI_PROVIDER_PATH pointing at the build):
 * what fi_getinfo() describes, bad arguments answered with the right
 * -FI_E* and no side effect, tagged messages to itself through the card
 * (remote CQ data and source, unexpected messages matched out of order
 * with same-tag order kept, a 3 MiB message), truncation, cancel, peek and
 * claim, counters, fi_cq_sread() timing out, a directed receive, a peer
 * context that does not exist, an FI_AV_MAP address vector, and closing
 * in the wrong order.  Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "ofi_util.h"
#include "tap.h"

TAP_DEFINE;

/* the provider's address (lib/fabric/proto.h struct lofi_addr) */
struct addr {
	uint32_t magic, node, ctx, slot_size, slots, regions;
	uint64_t rx_base;
};

static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_av *av;
static struct fid_cq *cq;
static struct fid_cntr *txc, *rxc;
static struct fid_ep *ep;

/* wait up to @ms for one completion or error; returns fi_cq_readfrom's result */
static ssize_t next_within(struct fi_cq_tagged_entry *e, fi_addr_t *src,
			   struct fi_cq_err_entry *err, int ms)
{
	int64_t end = now_ms() + ms;

	while (now_ms() < end) {
		ssize_t n = fi_cq_readfrom(cq, e, 1, src);

		if (n == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			fi_cq_readerr(cq, err, 0);
			return n;
		}
		if (n != -FI_EAGAIN)
			return n;
		struct timespec ts = { 0, 100000 };

		nanosleep(&ts, NULL);
	}
	return -FI_ETIMEDOUT;
}

static ssize_t next(struct fi_cq_tagged_entry *e, fi_addr_t *src,
		    struct fi_cq_err_entry *err)
{
	return next_within(e, src, err, 10000);
}

int main(void)
{
	struct fi_info *hints = fi_allocinfo(), *info = NULL, *none = NULL;
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED,
				      .wait_obj = FI_WAIT_UNSPEC };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err = { 0 };
	struct addr self, bad[2], other;
	fi_addr_t me = 99, src, ids[2] = { 77, 77 }, oth;
	size_t len;
	unsigned char *sbuf = malloc(3 << 20), *rbuf = malloc(3 << 20), small[64];
	char str[64];
	ssize_t n;
	int ret;

	tap_plan(31);
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_TAGGED | FI_MSG | FI_DIRECTED_RECV;
	hints->fabric_attr->prov_name = strdup("loom");
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED |
				     FI_MR_PROV_KEY;
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
	if (!tap_ok(ret == 0 && info && !strcmp(info->fabric_attr->prov_name, "loom") &&
		    (info->caps & FI_TAGGED) && (info->caps & FI_DIRECTED_RECV) &&
		    (info->tx_attr->msg_order & FI_ORDER_SAS) &&
		    info->domain_attr->cq_data_size == 8 &&
		    info->ep_attr->type == FI_EP_RDM && info->domain_attr->mr_mode == 0,
		    "fi_getinfo: loom, RDM, tagged, directed receive, send-after-send order, 8-byte CQ data, no MR needed (ret %d)",
		    ret))
		return 1;
	hints->caps = FI_TAGGED | FI_RMA;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR;
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &none);
	tap_ok(ret == -FI_ENODATA && !none,
	       "hints asking for FI_RMA without FI_MR_PROV_KEY and FI_MR_ALLOCATED: -FI_ENODATA (ret %d)",
	       ret);

	ret = fi_fabric(info->fabric_attr, &fabric, NULL);
	if (!ret)
		ret = fi_domain(fabric, info, &domain, NULL);
	if (!ret)
		ret = fi_av_open(domain, &av_attr, &av, NULL);
	if (!ret)
		ret = fi_cq_open(domain, &cq_attr, &cq, NULL);
	if (!ret)
		ret = fi_cntr_open(domain, &cntr_attr, &txc, NULL);
	if (!ret)
		ret = fi_cntr_open(domain, &cntr_attr, &rxc, NULL);
	if (!ret)
		ret = fi_endpoint(domain, info, &ep, NULL);
	if (!tap_ok(ret == 0, "fabric, domain, AV, CQ, counters and endpoint open (ret %d %s)",
		    ret, fi_strerror(-ret)))
		return 1;
	fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV);
	fi_ep_bind(ep, &txc->fid, FI_SEND);
	fi_ep_bind(ep, &rxc->fid, FI_RECV);
	ret = fi_enable(ep);
	tap_ok(ret == -FI_ENOAV, "fi_enable without an AV: -FI_ENOAV (ret %d)", ret);
	fi_ep_bind(ep, &av->fid, 0);
	n = fi_tsend(ep, small, 8, NULL, 0, 1, NULL);
	tap_ok(n == -FI_EOPBADSTATE, "a send before fi_enable: -FI_EOPBADSTATE (ret %zd)", n);
	ret = fi_enable(ep);
	tap_ok(ret == 0, "fi_enable with an AV and a CQ (ret %d)", ret);

	len = 4;
	ret = fi_getname(&ep->fid, &self, &len);
	tap_ok(ret == -FI_ETOOSMALL && len == sizeof(self),
	       "fi_getname into 4 bytes: -FI_ETOOSMALL and the length needed, %zu (ret %d)", len, ret);
	len = sizeof(self);
	fi_getname(&ep->fid, &self, &len);

	bad[0] = self;
	bad[1] = self;
	bad[1].magic ^= 1;
	ret = fi_av_insert(av, bad, 2, ids, 0, NULL);
	len = sizeof(other);
	tap_ok(ret == -FI_EINVAL && ids[0] == 77 && fi_av_lookup(av, 0, &other, &len) == -FI_EINVAL,
	       "fi_av_insert of a good and a malformed address: -FI_EINVAL, nothing inserted (ret %d)", ret);
	ret = fi_av_insert(av, &self, 1, &me, 0, NULL);
	len = sizeof(str);
	fi_av_straddr(av, &self, str, &len);
	tap_ok(ret == 1 && me == 0 && !strncmp(str, "loom://", 7),
	       "fi_av_insert of my own address: fi_addr %llu, %s (ret %d)",
	       (unsigned long long)me, str, ret);
	other = self;
	other.ctx = self.ctx + 1;
	fi_av_insert(av, &other, 1, &oth, 0, NULL);

	n = fi_tsend(ep, small, 8, NULL, 5, 1, NULL);
	tap_ok(n == -FI_EINVAL, "a send to an fi_addr never inserted: -FI_EINVAL (ret %zd)", n);
	{
		/* what the provider does not offer answers, never crashes */
		ssize_t w = fi_write(ep, small, 8, NULL, me, 0, 0, NULL);
		ssize_t a = fi_atomic(ep, small, 1, NULL, me, 0, 0, FI_UINT64, FI_SUM, NULL);
		ssize_t b = fi_barrier(ep, 0, NULL);
		size_t cnt = 7;
		int v = fi_atomicvalid(ep, FI_UINT64, FI_SUM, &cnt);

		tap_ok(w == -FI_ENOSYS && a == -FI_ENOSYS && b == -FI_ENOSYS &&
		       v == -FI_EOPNOTSUPP && cnt == 0,
		       "fi_write, fi_atomic, fi_barrier: -FI_ENOSYS; fi_atomicvalid: -FI_EOPNOTSUPP, count 0 (%zd %zd %zd %d %zu)",
		       w, a, b, v, cnt);
	}
	n = fi_tinject(ep, sbuf, info->tx_attr->inject_size + 1, me, 1);
	tap_ok(n == -FI_EMSGSIZE, "fi_tinject above inject_size (%zu): -FI_EMSGSIZE (ret %zd)",
	       info->tx_attr->inject_size, n);
	n = fi_trecv(ep, NULL, 10, NULL, FI_ADDR_UNSPEC, 1, 0, NULL);
	tap_ok(n == -FI_EINVAL, "a receive into NULL of 10 bytes: -FI_EINVAL (ret %zd)", n);

	/* remote CQ data and source, through the card to myself */
	fill(sbuf, 100, 1);
	memset(rbuf, 0, 100);
	fi_trecv(ep, rbuf, 100, NULL, FI_ADDR_UNSPEC, 0x11, 0, rbuf);
	fi_tsenddata(ep, sbuf, 100, NULL, 0xabcdef, me, 0x11, sbuf);
	{
		int got_tx = 0, got_rx = 0;

		for (int k = 0; k < 2; k++) {
			src = 12345;
			n = next(&e, &src, &err);
			if (n == 1 && e.op_context == sbuf && (e.flags & FI_SEND))
				got_tx = 1;
			if (n == 1 && e.op_context == rbuf && (e.flags & FI_RECV) &&
			    (e.flags & FI_REMOTE_CQ_DATA) && (e.flags & FI_TAGGED) &&
			    e.len == 100 && e.tag == 0x11 && e.data == 0xabcdef && src == me)
				got_rx = 1;
		}
		tap_ok(got_tx && got_rx && bad_byte(rbuf, 100, 1) < 0,
		       "fi_tsenddata to myself: send completion, receive with 100 bytes, tag, data 0xabcdef and source (tx %d rx %d, last: flags %#llx len %zu data %#llx src %llu)",
		       got_tx, got_rx, (unsigned long long)e.flags, e.len,
		       (unsigned long long)e.data, (unsigned long long)src);
	}

	/* unexpected, out of order, same-tag order kept, several fragments each */
	for (int k = 0; k < 3; k++) {
		fill(sbuf + k * 50000, 50000, 10 + k);
		fi_tsend(ep, sbuf + k * 50000, 50000, NULL, me, k < 2 ? 5 : 6, NULL);
	}
	for (int k = 0; k < 3; k++)
		next(&e, NULL, &err);	/* the three send completions */
	memset(rbuf, 0, 150000);
	fi_trecv(ep, rbuf + 100000, 50000, NULL, FI_ADDR_UNSPEC, 6, 0, NULL);
	fi_trecv(ep, rbuf, 50000, NULL, FI_ADDR_UNSPEC, 5, 0, NULL);
	fi_trecv(ep, rbuf + 50000, 50000, NULL, FI_ADDR_UNSPEC, 5, 0, NULL);
	for (int k = 0; k < 3; k++)
		next(&e, NULL, &err);
	tap_ok(bad_byte(rbuf, 50000, 10) < 0 && bad_byte(rbuf + 50000, 50000, 11) < 0 &&
	       bad_byte(rbuf + 100000, 50000, 12) < 0,
	       "three unexpected 50000-byte messages, tags 5 5 6, received 6 then 5 5: every byte where it belongs (bad bytes at %ld %ld %ld)",
	       bad_byte(rbuf, 50000, 10), bad_byte(rbuf + 50000, 50000, 11),
	       bad_byte(rbuf + 100000, 50000, 12));

	/* 3 MiB: many fragments, credits go round */
	fill(sbuf, 3 << 20, 3);
	memset(rbuf, 0, 3 << 20);
	fi_trecv(ep, rbuf, 3 << 20, NULL, me, 0x333, 0, rbuf);
	fi_tsend(ep, sbuf, 3 << 20, NULL, me, 0x333, sbuf);
	{
		int ok = 0;

		for (int k = 0; k < 2; k++)
			if (next(&e, NULL, &err) == 1 && e.op_context == rbuf && e.len == (3u << 20))
				ok = 1;
		tap_ok(ok && bad_byte(rbuf, 3 << 20, 3) < 0,
		       "a 3 MiB message to myself arrives whole (first bad byte %ld)",
		       bad_byte(rbuf, 3 << 20, 3));
	}

	/* truncation */
	fill(sbuf, 1000, 4);
	fi_trecv(ep, rbuf, 10, NULL, FI_ADDR_UNSPEC, 0x44, 0, rbuf);
	fi_tsend(ep, sbuf, 1000, NULL, me, 0x44, NULL);
	{
		int trunc = 0;

		for (int k = 0; k < 2; k++)
			if (next(&e, NULL, &err) == -FI_EAVAIL && err.err == FI_ETRUNC &&
			    err.olen == 990 && err.len == 10 && err.op_context == rbuf)
				trunc = 1;
		tap_ok(trunc && bad_byte(rbuf, 10, 4) < 0,
		       "1000 bytes into a 10-byte receive: FI_ETRUNC with olen 990, 10 bytes delivered (last error %d olen %zu)",
		       err.err, err.olen);
	}

	/* cancel */
	fi_trecv(ep, rbuf, 10, NULL, FI_ADDR_UNSPEC, 0x77, 0, small);
	ret = fi_cancel(&ep->fid, small);
	n = next(&e, NULL, &err);
	tap_ok(ret == 0 && n == -FI_EAVAIL && err.err == FI_ECANCELED && err.op_context == small &&
	       fi_cancel(&ep->fid, small) == -FI_ENOENT,
	       "fi_cancel of a posted receive: FI_ECANCELED, and a second cancel -FI_ENOENT (ret %d, err %d)",
	       ret, err.err);

	/* peek and claim */
	{
		struct fi_msg_tagged m = { 0 };
		struct iovec iov = { rbuf, 100 };
		int peek_none, peek_found = 0, claimed = 0;

		m.msg_iov = &iov;
		m.iov_count = 1;
		m.addr = FI_ADDR_UNSPEC;
		m.tag = 0x55;
		m.context = small + 1;
		fi_trecvmsg(ep, &m, FI_PEEK);
		peek_none = next(&e, NULL, &err) == -FI_EAVAIL && err.err == FI_ENOMSG;
		fill(sbuf, 100, 5);
		fi_tsend(ep, sbuf, 100, NULL, me, 0x55, NULL);
		next(&e, NULL, &err);
		for (int k = 0; k < 1000 && !peek_found; k++) {
			fi_trecvmsg(ep, &m, FI_PEEK | FI_CLAIM);
			n = next(&e, NULL, &err);
			peek_found = n == 1 && e.len == 100 && e.tag == 0x55;
		}
		memset(rbuf, 0, 100);
		fi_trecvmsg(ep, &m, FI_CLAIM);
		n = next(&e, NULL, &err);
		claimed = n == 1 && e.len == 100 && bad_byte(rbuf, 100, 5) < 0;
		tap_ok(peek_none && peek_found && claimed,
		       "FI_PEEK of nothing: FI_ENOMSG; FI_PEEK|FI_CLAIM finds the message, FI_CLAIM receives it (%d %d %d)",
		       peek_none, peek_found, claimed);
	}

	/* directed receive: a receive from another address does not take mine */
	fi_trecv(ep, rbuf, 10, NULL, oth, 0x66, 0, small + 2);
	fi_tsend(ep, sbuf, 10, NULL, me, 0x66, NULL);
	next(&e, NULL, &err);	/* the send */
	n = next_within(&e, NULL, &err, 1000);
	{
		int stayed = n == -FI_ETIMEDOUT;

		fi_cancel(&ep->fid, small + 2);
		next(&e, NULL, &err);
		fi_trecv(ep, rbuf, 10, NULL, me, 0x66, 0, small + 3);
		n = next(&e, NULL, &err);
		tap_ok(stayed && n == 1 && e.op_context == small + 3,
		       "a receive directed at another endpoint leaves my message; one directed at me takes it (%d, %zd)",
		       stayed, n);
	}

	/* 8 sends; 7 receives and the truncated one (cancel and peek count nothing) */
	tap_ok(fi_cntr_read(txc) == 8 && fi_cntr_read(rxc) == 7 && fi_cntr_readerr(rxc) == 1 &&
	       fi_cntr_readerr(txc) == 0,
	       "counters: %llu sends (8), %llu receives (7), %llu receive errors (1: the truncation), %llu send errors (0)",
	       (unsigned long long)fi_cntr_read(txc), (unsigned long long)fi_cntr_read(rxc),
	       (unsigned long long)fi_cntr_readerr(rxc), (unsigned long long)fi_cntr_readerr(txc));
	{
		int64_t t0 = now_ms();

		n = fi_cq_sread(cq, &e, 1, NULL, 300);
		tap_ok(n == -FI_EAGAIN && now_ms() - t0 >= 250 && now_ms() - t0 < 5000,
		       "fi_cq_sread with nothing coming: -FI_EAGAIN after %lld ms (300 asked; ret %zd)",
		       (long long)(now_ms() - t0), n);
	}
	fill(sbuf, 64, 6);
	fi_trecv(ep, rbuf, 64, NULL, FI_ADDR_UNSPEC, 0x99, 0, NULL);
	fi_tinject(ep, sbuf, 64, me, 0x99);
	memset(sbuf, 0, 64);	/* inject copied it */
	n = fi_cq_sread(cq, &e, 1, NULL, 10000);
	tap_ok(n == 1 && (e.flags & FI_RECV) && bad_byte(rbuf, 64, 6) < 0,
	       "fi_tinject, buffer reused at once: fi_cq_sread returns the receive, bytes intact (ret %zd)", n);

	/* a peer context that does not exist */
	{
		struct addr ghost = self;
		fi_addr_t g;

		ghost.ctx = 4000;
		fi_av_insert(av, &ghost, 1, &g, 0, NULL);
		fi_tsend(ep, sbuf, 10, NULL, g, 1, sbuf + 1);
		n = next(&e, NULL, &err);
		tap_ok(n == -FI_EAVAIL && err.err != 0 && err.op_context == sbuf + 1,
		       "a send to a context nobody runs completes with an error: %s (%d), card: %s",
		       fi_strerror(err.err), err.err,
		       fi_cq_strerror(cq, err.prov_errno, NULL, str, sizeof(str)));
		n = fi_tsend(ep, sbuf, 10, NULL, g, 1, sbuf + 2);
		if (n == 0)
			n = next(&e, NULL, &err);
		tap_ok(n == -FI_EAVAIL && err.op_context == sbuf + 2,
		       "the next send to it fails too, at once (ret %zd, err %d)", n, err.err);
		fi_tsend(ep, sbuf, 10, NULL, me, 0x12, NULL);
		fi_trecv(ep, rbuf, 10, NULL, me, 0x12, 0, NULL);
		next(&e, NULL, &err);
		n = next(&e, NULL, &err);
		tap_ok(n == 1, "sends to a good peer still work (ret %zd)", n);
	}

	/* FI_AV_MAP: insert, lookup, remove; an unknown AV type opens nothing */
	{
		struct fi_av_attr map_attr = { .type = FI_AV_MAP };
		struct fi_av_attr bad_attr = { .type = (enum fi_av_type)42 };
		struct fid_av *map = NULL, *unset = NULL;
		struct addr got;
		fi_addr_t ids2[2] = { 77, 77 };
		struct addr two[2] = { self, other };
		int r_ins, r_look, r_rm, r_gone, r_again, r_first, r_close;

		ret = fi_av_open(domain, &bad_attr, &unset, NULL);
		tap_ok(ret == -FI_EINVAL && !unset, "fi_av_open of AV type 42: -FI_EINVAL, no AV (ret %d)",
		       ret);
		ret = fi_av_open(domain, &map_attr, &map, NULL);
		r_ins = ret ? ret : fi_av_insert(map, two, 2, ids2, 0, NULL);
		len = sizeof(got);
		r_look = ret ? ret : fi_av_lookup(map, ids2[1], &got, &len);
		r_look = r_look ? r_look : memcmp(&got, &other, sizeof(got)) ? -1 : 0;
		r_rm = ret ? ret : fi_av_remove(map, &ids2[1], 1, 0);
		len = sizeof(got);
		r_gone = ret ? ret : fi_av_lookup(map, ids2[1], &got, &len);
		r_again = ret ? ret : fi_av_remove(map, &ids2[1], 1, 0);
		len = sizeof(got);
		r_first = ret ? ret : fi_av_lookup(map, ids2[0], &got, &len);
		r_first = r_first ? r_first : memcmp(&got, &self, sizeof(got)) ? -1 : 0;
		r_close = map ? fi_close(&map->fid) : -1;
		tap_ok(ret == 0 && r_ins == 2 && r_look == 0 && r_rm == 0 && r_gone == -FI_EINVAL &&
		       r_again == -FI_EINVAL && r_first == 0 && r_close == 0,
		       "FI_AV_MAP: 2 inserted, looked up, one removed (its lookup and a second removal -FI_EINVAL, the other kept), closed (%d %d %d %d %d %d %d %d)",
		       ret, r_ins, r_look, r_rm, r_gone, r_again, r_first, r_close);
	}

	ret = fi_close(&cq->fid);
	tap_ok(ret == -FI_EBUSY, "closing the CQ while the endpoint uses it: -FI_EBUSY (ret %d)", ret);
	ret = fi_close(&domain->fid);
	tap_ok(ret == -FI_EBUSY, "closing the domain with objects open: -FI_EBUSY (ret %d)", ret);
	ret = fi_close(&ep->fid);
	ret |= fi_close(&cq->fid);
	ret |= fi_close(&txc->fid);
	ret |= fi_close(&rxc->fid);
	ret |= fi_close(&av->fid);
	ret |= fi_close(&domain->fid);
	ret |= fi_close(&fabric->fid);
	tap_ok(ret == 0, "endpoint, CQ, counters, AV, domain and fabric close in order (ret %d)", ret);
	fi_freeinfo(info);
	fi_freeinfo(hints);
	free(sbuf);
	free(rbuf);
	return tap.failed ? 1 : 0;
}
