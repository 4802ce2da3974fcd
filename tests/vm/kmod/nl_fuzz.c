// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz: sends random messages to the "loom" generic netlink family and
 * reads every answer (guest side of test_nl_fuzz.sh; deliberately not
 * named test_*).  Each message has a random command, a random version,
 * sometimes NLM_F_DUMP, and random attributes: random types and lengths,
 * u32 values near the policies' limits, nests of random inner attributes,
 * and usually a DEV_INDEX of 0 so that the handlers get past the card
 * lookup.  Run as root, it changes the card's settings at random: use a
 * lab of its own.
 *
 * LOOM_CMD_MAINT gets one message in eight on top of its share of the
 * random commands, mostly with a MAINT nest whose attributes are each
 * right nine times in ten (op, route, address, value, a per-attempt
 * timeout of 1..20 ms and 0..2 retries) and otherwise wrong (bad op,
 * ports above 7, too long a route, timeouts and retries out of range,
 * reply-only or unknown attributes, wrong lengths), so that the handler
 * both answers and refuses, and an accepted request waits at most about
 * 400 ms (default timeout of 100 ms, 4 attempts) even when its route
 * leads nowhere.
 *
 *   nl_fuzz [COUNT [SEED]]     default 5000 messages, seed 1
 *
 * Run by a user other than root, every command that needs CAP_NET_ADMIN
 * must be refused: one that succeeds is a privilege violation, printed
 * and counted ("N privileged commands succeeded without CAP_NET_ADMIN").
 *
 * NL_FUZZ_VERBOSE=1 (environment) prints every LOOM_CMD_MAINT answer with
 * its extack message.
 *
 * Prints how many answers of each errno came back, and for LOOM_CMD_MAINT
 * how many succeeded, how many refusals came without an extack message
 * and the slowest answer.
 *
 * Every refusal is classified by command number, dump flag and errno:
 *
 *   core, expected bare: the generic netlink core answers these before the
 *     module is called and without a message:
 *       - a command number the family has no operation for (LOOM_CMD_UNSPEC,
 *         the multicast-only event numbers, anything above LOOM_CMD_MAX):
 *         EOPNOTSUPP;
 *       - NLM_F_DUMP on a command without a dump handler, or no NLM_F_DUMP
 *         on a dump-only command (STATS_GET, KEY_GET): EOPNOTSUPP;
 *       - EPERM on a GENL_ADMIN_PERM command when not run with
 *         CAP_NET_ADMIN (the fuzzer runs as root, so never here).
 *   core, with a message: policy rejections (unknown attribute type, wrong
 *     length, value out of range, missing NLA_F_NESTED...) carry the core's
 *     own extack message and are counted with the module's answers.
 *   module: every other refusal of a known command, doit or dump (a dump's
 *     error comes in its NLMSG_DONE, with the message as an
 *     NLMSGERR_ATTR_MSG after the errno), must carry an extack message.
 *
 * The bare refusals are listed by command, dump flag and errno, each
 * marked "core" or "MODULE"; with NL_FUZZ_VERBOSE=1 every one is printed
 * as it comes.  Exit 0 when every message was sent and answered (an
 * answer may be an error: that is the point) and no refusal that reached
 * the module came without a message, 1 otherwise.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/loom_netlink.h>
#include <loom_hw/regs.h>

#define NLF_BUF		8192
#define NLF_MAX_ERRNO	256
#define LOOM_MAX_NODES_BYTES	128	/* VCT_START_VC1: 1024 bits */

static uint64_t nlf_state;

static uint32_t nlf_rand(void)
{
	/* xorshift64*: reproducible from the seed */
	nlf_state ^= nlf_state >> 12;
	nlf_state ^= nlf_state << 25;
	nlf_state ^= nlf_state >> 27;
	return (uint32_t)((nlf_state * 0x2545f4914f6cdd1dull) >> 32);
}

static uint32_t nlf_below(uint32_t n)
{
	return n ? nlf_rand() % n : 0;
}

struct nlf_msg {
	char buf[NLF_BUF];
	size_t len;
};

/* Append an attribute; returns its offset, or -1 when the buffer is full. */
static long nlf_put(struct nlf_msg *m, uint16_t type, const void *data, size_t len)
{
	size_t need = NLA_ALIGN(NLA_HDRLEN + len);
	struct nlattr *a;
	long off = (long)m->len;

	if (m->len + need > sizeof(m->buf))
		return -1;
	a = (struct nlattr *)(m->buf + m->len);
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy(m->buf + m->len + NLA_HDRLEN, data, len);
	memset(m->buf + m->len + NLA_HDRLEN + len, 0, need - NLA_HDRLEN - len);
	m->len += need;
	return off;
}

/* the commands the family gives GENL_ADMIN_PERM */
static int nlf_privileged(uint8_t cmd)
{
	switch (cmd) {
	case LOOM_CMD_ROUTE_SET:
	case LOOM_CMD_ROUTE_DEL:
	case LOOM_CMD_MAINT:
	case LOOM_CMD_DEV_SET:
	case LOOM_CMD_ROUTE_LOAD:
	case LOOM_CMD_PORT_SET:
	case LOOM_CMD_VC_SET:
	case LOOM_CMD_KEY_GRANT:
	case LOOM_CMD_KEY_REVOKE:
	case LOOM_CMD_BSU_SET:
	case LOOM_CMD_MCAST_SET:
	case LOOM_CMD_MCAST_DEL:
		return 1;
	default:
		return 0;
	}
}

static uint32_t nlf_value(void)
{
	static const uint32_t edges[] = { 0, 1, 2, 7, 8, 14, 15, 16, 63, 64, 255, 256,
					  1023, 1024, 65535, 65536, 3600000, 3600001,
					  0x7fffffff, 0xffffffff };

	if (nlf_below(4))
		return edges[nlf_below(sizeof(edges) / sizeof(edges[0]))];
	return nlf_rand();
}

/*
 * Random attributes, some of them nests, down to depth 2: top-level types
 * 0..LOOM_ATTR_MAX + 2, inner types 0..13 (the nests' enums are shorter).
 */
static void nlf_attrs(struct nlf_msg *m, int depth, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint16_t type = (uint16_t)nlf_below(depth ? 14 : LOOM_ATTR_MAX + 3);
		unsigned char data[160];
		size_t len;
		long off;

		if (depth < 2 && nlf_below(depth ? 6 : 3) == 0) {
			/* a nest: of a known nest type most of the time */
			static const uint16_t nests[] = { LOOM_ATTR_ROUTE, LOOM_ATTR_PORT,
							  LOOM_ATTR_ROUTE_TABLE, LOOM_ATTR_VCT_PORT,
							  LOOM_ATTR_STATS, LOOM_ATTR_KEY,
							  LOOM_ATTR_BSU, LOOM_ATTR_DROPS,
							  LOOM_ATTR_MCAST };
			if (nlf_below(4))
				type = nests[nlf_below(sizeof(nests) / sizeof(nests[0]))];
			if (nlf_below(8) == 0)
				type |= NLA_F_NESTED;
			off = nlf_put(m, type, NULL, 0);
			if (off < 0)
				return;
			nlf_attrs(m, depth + 1, nlf_below(6));
			((struct nlattr *)(m->buf + off))->nla_len = (uint16_t)(m->len - (size_t)off);
			continue;
		}
		switch (nlf_below(5)) {
		case 0:
			len = 0;
			break;
		case 1:
		case 2: {
			uint32_t v = nlf_value();

			memcpy(data, &v, 4);
			len = 4;
			break;
		}
		case 3:
			data[0] = (unsigned char)nlf_value();
			len = 1;
			break;
		default:
			/* the VC bitmap has an exact length: hit it at times */
			len = type == LOOM_ATTR_VCT_START_VC1 && nlf_below(2) ?
			      LOOM_MAX_NODES_BYTES : nlf_below(65);
			for (size_t k = 0; k < len; k++)
				data[k] = (unsigned char)nlf_rand();
			break;
		}
		if (nlf_put(m, type, data, len) < 0)
			return;
	}
}

static int nlf_resolve(int fd, uint32_t *seq)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		char attrs[64];
	} req;
	char buf[NLF_BUF];
	struct nlattr *a;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_type = GENL_ID_CTRL;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.h.nlmsg_seq = ++*seq;
	req.g.cmd = CTRL_CMD_GETFAMILY;
	req.g.version = 1;
	a = (struct nlattr *)req.attrs;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(LOOM_GENL_NAME);
	memcpy(req.attrs + NLA_HDRLEN, LOOM_GENL_NAME, sizeof(LOOM_GENL_NAME));
	req.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	if (send(fd, &req, req.h.nlmsg_len, 0) < 0)
		return -1;
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < (ssize_t)NLMSG_LENGTH(GENL_HDRLEN))
		return -1;
	if (((struct nlmsghdr *)buf)->nlmsg_type != GENL_ID_CTRL)
		return -1;
	for (size_t off = NLMSG_LENGTH(GENL_HDRLEN); off + NLA_HDRLEN <= (size_t)n;) {
		a = (struct nlattr *)(buf + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)(buf + off + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
	return -1;
}

static char nlf_last_msg[256];

/*
 * Does an NLMSG_ERROR or NLMSG_DONE carry an extack message
 * (NLMSGERR_ATTR_MSG)?  Its attributes follow the struct nlmsgerr of an
 * error, the errno (an int) of a dump's end.
 */
static int nlf_has_msg(const struct nlmsghdr *h)
{
	size_t off = NLMSG_LENGTH(h->nlmsg_type == NLMSG_DONE ? sizeof(int) :
				  sizeof(struct nlmsgerr));

	nlf_last_msg[0] = 0;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	while (off + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + off);

		if (a->nla_len < NLA_HDRLEN)
			return 0;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG && a->nla_len > NLA_HDRLEN) {
			snprintf(nlf_last_msg, sizeof(nlf_last_msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN), (const char *)a + NLA_HDRLEN);
			return 1;
		}
		off += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

/*
 * Read until the request is answered; the errno of the answer in *err and,
 * for an error, whether it came with an extack message in *has_msg.
 */
static int nlf_drain(int fd, uint32_t seq, int *err, int *has_msg)
{
	static char buf[1 << 16];

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;
		size_t left;

		if (n < 0)
			return -1;	/* timed out: the kernel never answered */
		left = (size_t)n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				*err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
				*has_msg = nlf_has_msg(h);
				return 0;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				int v = *(int *)NLMSG_DATA(h);

				*err = v < 0 ? -v : 0;
				*has_msg = nlf_has_msg(h);
				return 0;
			}
		}
	}
}

/* Top-level attributes of the right type (u32, flag, binary or a nest). */
static void nlf_typed_attrs(struct nlf_msg *m, unsigned int n)
{
	static const struct {
		uint16_t type;
		char kind;		/* u: u32, f: flag, n: nest, b: bitmap */
		uint8_t inner_max;	/* nests: highest inner type */
	} t[] = {
		{ LOOM_ATTR_DEV_LOGICAL_ID, 'u', 0 }, { LOOM_ATTR_DEV_FP_TIMEOUT_MS, 'u', 0 },
		{ LOOM_ATTR_DEV_LANE_THRESHOLD, 'u', 0 }, { LOOM_ATTR_ROUTE, 'n', 5 },
		{ LOOM_ATTR_PORT, 'n', 21 }, { LOOM_ATTR_ROUTE_TABLE, 'n', 0 },
		{ LOOM_ATTR_VCT_PORT, 'n', 3 }, { LOOM_ATTR_VCT_START_VC1, 'b', 0 },
		{ LOOM_ATTR_VCT_DEST, 'u', 0 }, { LOOM_ATTR_VCT_VC, 'u', 0 },
		{ LOOM_ATTR_KEY, 'n', 3 }, { LOOM_ATTR_BSU, 'n', 12 },
		{ LOOM_ATTR_DEV_EMULATED, 'f', 0 }, { LOOM_ATTR_MCAST, 'n', 5 },
	};

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = nlf_below(sizeof(t) / sizeof(t[0]));
		unsigned char bits[LOOM_MAX_NODES_BYTES];
		uint32_t v = nlf_value();
		long off;

		switch (t[k].kind) {
		case 'u':
			nlf_put(m, t[k].type, &v, 4);
			break;
		case 'f':
			nlf_put(m, t[k].type, NULL, 0);
			break;
		case 'b':
			for (size_t b = 0; b < sizeof(bits); b++)
				bits[b] = (unsigned char)nlf_rand();
			nlf_put(m, t[k].type, bits, sizeof(bits));
			break;
		default:
			off = nlf_put(m, t[k].type, NULL, 0);
			if (off < 0)
				return;
			if (t[k].type == LOOM_ATTR_ROUTE_TABLE) {
				/* routes: DEST, PORT, PHYS_DEST as u32, ADAPTIVE as flag */
				for (unsigned int r = nlf_below(40); r; r--) {
					long ro = nlf_put(m, LOOM_ATTR_ROUTE, NULL, 0);

					if (ro < 0)
						return;
					for (uint16_t a = 1; a <= 3; a++) {
						v = nlf_below(4) ? nlf_below(24) : nlf_value();
						if (nlf_below(6))
							nlf_put(m, a, &v, 4);
					}
					if (nlf_below(2))
						nlf_put(m, LOOM_ATTR_ROUTE_ADAPTIVE, NULL, 0);
					((struct nlattr *)(m->buf + ro))->nla_len =
						(uint16_t)(m->len - (size_t)ro);
				}
			} else {
				for (unsigned int a = nlf_below(5); a; a--) {
					uint16_t it = (uint16_t)(1 + nlf_below(t[k].inner_max));
					unsigned int kind = nlf_below(6);

					v = nlf_below(2) ? nlf_below(16) : nlf_value();
					if (kind == 0)
						nlf_put(m, it, NULL, 0);
					else if (kind == 1)
						nlf_put(m, it, &v, 1);
					else
						nlf_put(m, it, &v, 4);
				}
			}
			((struct nlattr *)(m->buf + off))->nla_len = (uint16_t)(m->len - (size_t)off);
			break;
		}
	}
}

/* 1 time in @n: the attribute is made wrong */
static int nlf_wrong(uint32_t n)
{
	return nlf_below(n) == 0;
}

/*
 * A MAINT nest: each attribute right most of the time, so that a good part
 * of the requests reach the card, and every way of being wrong sometimes.
 * Accepted requests have short timeouts: thousands of them stay quick.
 */
static void nlf_maint_attrs(struct nlf_msg *m)
{
	static const uint32_t bad_timeout[] = { 0, 10001, 3600000, 0xffffffff };
	static const uint32_t bad_retries[] = { 101, 65535, 0xffffffff };
	uint16_t type = LOOM_ATTR_MAINT | (nlf_wrong(10) ? 0 : NLA_F_NESTED);
	unsigned char route[24];
	size_t len;
	uint32_t v;
	uint8_t op;
	long off;

	off = nlf_put(m, type, NULL, 0);
	if (off < 0)
		return;
	if (!nlf_wrong(10)) {
		op = nlf_wrong(10) ? (uint8_t)nlf_rand() : (uint8_t)(LOOM_MAINT_OP_READ + nlf_below(2));
		if (nlf_wrong(20)) {
			v = op;
			nlf_put(m, LOOM_ATTR_MAINT_OP, &v, 4);	/* u32 for a u8 */
		} else {
			nlf_put(m, LOOM_ATTR_MAINT_OP, &op, 1);
		}
	}
	if (!nlf_wrong(10)) {
		/* half of them for this card, half one or two hops away */
		len = nlf_wrong(10) ? nlf_below(sizeof(route) + 1) :
		      nlf_below(2) ? 0 : 1 + nlf_below(2);
		for (size_t k = 0; k < len; k++)
			route[k] = (unsigned char)(nlf_wrong(10) ? nlf_rand() : nlf_below(2));
		nlf_put(m, LOOM_ATTR_MAINT_ROUTE, route, len);
	}
	if (!nlf_wrong(10)) {
		v = nlf_below(2) ? 4 * nlf_below(1024) : nlf_value();
		nlf_put(m, LOOM_ATTR_MAINT_ADDR, &v, nlf_wrong(20) ? 2 : 4);
	}
	if (!nlf_wrong(4)) {
		v = nlf_value();
		nlf_put(m, LOOM_ATTR_MAINT_VALUE, &v, 4);
	}
	if (!nlf_wrong(10)) {
		v = nlf_wrong(10) ? bad_timeout[nlf_below(4)] : 1 + nlf_below(20);
		nlf_put(m, LOOM_ATTR_MAINT_TIMEOUT_MS, &v, 4);
	}
	if (!nlf_wrong(10)) {
		v = nlf_wrong(10) ? bad_retries[nlf_below(3)] : nlf_below(3);
		nlf_put(m, LOOM_ATTR_MAINT_RETRIES, &v, 4);
	}
	if (nlf_wrong(12)) {
		/* an attribute only replies carry, or one the policy lacks */
		v = nlf_value();
		nlf_put(m, (uint16_t)(LOOM_ATTR_MAINT_STATUS + nlf_below(LOOM_ATTR_MAINT_MAX + 3 -
									   LOOM_ATTR_MAINT_STATUS)),
			&v, 4);
	}
	((struct nlattr *)(m->buf + off))->nla_len = (uint16_t)(m->len - (size_t)off);
}

/* Which operations the family registers: a doit, a dumpit, or both. */
#define NLF_DOIT	1
#define NLF_DUMPIT	2
static const unsigned char nlf_ops[__LOOM_CMD_MAX] = {
	[LOOM_CMD_DEV_GET] = NLF_DOIT | NLF_DUMPIT,
	[LOOM_CMD_ROUTE_GET] = NLF_DOIT | NLF_DUMPIT,
	[LOOM_CMD_ROUTE_SET] = NLF_DOIT,
	[LOOM_CMD_ROUTE_DEL] = NLF_DOIT,
	[LOOM_CMD_PORT_GET] = NLF_DOIT | NLF_DUMPIT,
	[LOOM_CMD_DEV_SET] = NLF_DOIT,
	[LOOM_CMD_ROUTE_LOAD] = NLF_DOIT,
	[LOOM_CMD_PORT_SET] = NLF_DOIT,
	[LOOM_CMD_VC_GET] = NLF_DOIT,
	[LOOM_CMD_VC_SET] = NLF_DOIT,
	[LOOM_CMD_STATS_GET] = NLF_DUMPIT,
	[LOOM_CMD_MAINT] = NLF_DOIT,
	[LOOM_CMD_KEY_GRANT] = NLF_DOIT,
	[LOOM_CMD_KEY_REVOKE] = NLF_DOIT,
	[LOOM_CMD_KEY_GET] = NLF_DUMPIT,
	[LOOM_CMD_BSU_GET] = NLF_DOIT | NLF_DUMPIT,
	[LOOM_CMD_BSU_SET] = NLF_DOIT,
	[LOOM_CMD_MCAST_SET] = NLF_DOIT,
	[LOOM_CMD_MCAST_DEL] = NLF_DOIT,
	[LOOM_CMD_MCAST_GET] = NLF_DOIT | NLF_DUMPIT,
};

/* the reasons nlf_core_bare() gives, in its order, and their counts */
static const char *const nlf_core_reasons[] = {
	"unknown command", "dump of a doit-only command",
	"doit of a dump-only command", "GENL_ADMIN_PERM without CAP_NET_ADMIN",
};
static unsigned long nlf_core_count[4];

/*
 * Why a refusal without an extack message is expected: the core's reason,
 * or NULL when the request reached the module (which must explain it).
 */
static const char *nlf_core_bare(unsigned int cmd, int dump, int err)
{
	unsigned int ops = cmd < __LOOM_CMD_MAX ? nlf_ops[cmd] : 0;

	if (err == EOPNOTSUPP && !ops)
		return nlf_core_reasons[0];
	if (err == EOPNOTSUPP && dump && !(ops & NLF_DUMPIT))
		return nlf_core_reasons[1];
	if (err == EOPNOTSUPP && !dump && !(ops & NLF_DOIT))
		return nlf_core_reasons[2];
	if (err == EPERM && geteuid() != 0)
		return nlf_core_reasons[3];
	return NULL;
}

/* bare refusals, counted by command (0..255), dump flag and errno */
static unsigned long nlf_bare[256][2][NLF_MAX_ERRNO];

static double nlf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	unsigned long count = argc > 1 ? strtoul(argv[1], NULL, 0) : 5000;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
	unsigned long answers[NLF_MAX_ERRNO] = { 0 }, lost = 0;
	unsigned long maint = 0, maint_ok = 0, maint_silent = 0, module_bare = 0, core_bare = 0;
	unsigned long escalated = 0;
	int unprivileged = geteuid() != 0;
	double maint_slowest = 0;
	struct timeval tv = { .tv_sec = 5 };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t seq = 0;
	int fd, family, one = 1;

	nlf_state = seed * 0x9e3779b97f4a7c15ull + 1;
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("nl_fuzz: netlink socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	family = nlf_resolve(fd, &seq);
	if (family < 0) {
		fprintf(stderr, "nl_fuzz: the %s family is not registered: is loom.ko loaded?\n",
			LOOM_GENL_NAME);
		return 1;
	}
	for (unsigned long i = 0; i < count; i++) {
		struct nlf_msg m = { .len = NLMSG_LENGTH(GENL_HDRLEN) };
		struct nlmsghdr *h = (struct nlmsghdr *)m.buf;
		struct genlmsghdr *g = (struct genlmsghdr *)NLMSG_DATA(h);
		int err = 0, has_msg = 0, dump;
		double t0;

		memset(m.buf, 0, m.len);
		/* mostly the family's commands, at times anything; MAINT more */
		g->cmd = (uint8_t)(nlf_below(5) ? nlf_below(__LOOM_CMD_MAX) : nlf_below(256));
		if (nlf_below(8) == 0)
			g->cmd = LOOM_CMD_MAINT;
		g->version = nlf_below(8) ? LOOM_GENL_VERSION : (uint8_t)nlf_rand();
		if (nlf_below(8) == 0)
			g->reserved = (uint16_t)nlf_rand();
		if (nlf_below(10) < 7) {
			uint32_t dev = nlf_below(10) ? 0 : nlf_value();

			nlf_put(&m, LOOM_ATTR_DEV_INDEX, &dev, 4);
		}
		/* half of the messages well typed, to get past the policies */
		if (g->cmd == LOOM_CMD_MAINT && nlf_below(4))
			nlf_maint_attrs(&m);
		else if (nlf_below(2))
			nlf_typed_attrs(&m, 1 + nlf_below(4));
		else
			nlf_attrs(&m, 0, nlf_below(8));
		h->nlmsg_len = (uint32_t)m.len;
		h->nlmsg_type = (uint16_t)family;
		dump = nlf_below(5) ? 0 : NLM_F_DUMP;
		h->nlmsg_flags = (uint16_t)(NLM_F_REQUEST | NLM_F_ACK | dump);
		h->nlmsg_seq = ++seq;
		t0 = nlf_now_ms();
		if (send(fd, m.buf, m.len, 0) < 0) {
			fprintf(stderr, "nl_fuzz: message %lu (cmd %u): send: %s\n", i, g->cmd,
				strerror(errno));
			lost++;
			continue;
		}
		if (nlf_drain(fd, seq, &err, &has_msg)) {
			fprintf(stderr, "nl_fuzz: message %lu (cmd %u, %zu bytes): no answer: %s\n",
				i, g->cmd, m.len, strerror(errno));
			lost++;
			continue;
		}
		answers[err < NLF_MAX_ERRNO ? err : 0]++;
		if (unprivileged && !err && nlf_privileged(g->cmd) && escalated++ < 10)
			fprintf(stderr, "nl_fuzz: message %lu: privileged command %u succeeded for uid %u\n",
				i, g->cmd, (unsigned int)geteuid());
		if (g->cmd == LOOM_CMD_MAINT && !dump) {
			double ms = nlf_now_ms() - t0;

			maint++;
			maint_ok += !err;
			if (getenv("NL_FUZZ_VERBOSE"))
				printf("maint %lu: %s: %s (%.0f ms)\n", i, err ? strerror(err) : "success",
				       nlf_last_msg, ms);
			if (ms > maint_slowest)
				maint_slowest = ms;
			if (err && !has_msg && maint_silent++ < 10)
				fprintf(stderr, "nl_fuzz: message %lu (LOOM_CMD_MAINT, %zu bytes): refused with %s and no extack message\n",
					i, m.len, strerror(err));
		}
		if (err && !has_msg) {
			const char *why = nlf_core_bare(g->cmd, !!dump, err);

			nlf_bare[g->cmd][!!dump][err < NLF_MAX_ERRNO ? err : 0]++;
			if (why) {
				core_bare++;
				for (int r = 0; r < 4; r++)
					nlf_core_count[r] += why == nlf_core_reasons[r];
			} else
				module_bare++;
			if (getenv("NL_FUZZ_VERBOSE"))
				printf("bare %lu: cmd %u%s: %s: %s\n", i, g->cmd, dump ? " dump" : "",
				       strerror(err), why ? why : "reached the module");
		}
	}
	printf("nl_fuzz: %lu messages, seed %lu, %lu unanswered\n", count, seed, lost);
	if (unprivileged)
		printf("nl_fuzz: %lu privileged commands succeeded without CAP_NET_ADMIN\n",
		       escalated);
	printf("nl_fuzz: LOOM_CMD_MAINT: %lu requests, %lu succeeded, %lu refusals without an extack message, slowest answer %.0f ms\n",
	       maint, maint_ok, maint_silent, maint_slowest);
	printf("nl_fuzz: refusals without an extack message: %lu answered by the generic netlink core, %lu by the module\n",
	       core_bare, module_bare);
	for (int r = 0; r < 4; r++)
		printf("nl_fuzz: core, %s: %lu\n", nlf_core_reasons[r], nlf_core_count[r]);
	for (int e = 0; e < NLF_MAX_ERRNO; e++)
		if (answers[e])
			printf("  %-32s %lu\n", e ? strerror(e) : "success", answers[e]);
	printf("nl_fuzz: bare refusals by command, dump flag and errno (core: expected, MODULE: a handler forgot its message):\n");
	for (unsigned int c = 0; c < 256; c++)
		for (int d = 0; d < 2; d++)
			for (int e = 0; e < NLF_MAX_ERRNO; e++)
				if (nlf_bare[c][d][e])
					printf("  bare: cmd %3u%-5s %-28s %5lu  %s\n", c, d ? " dump" : "",
					       e ? strerror(e) : "errno out of range", nlf_bare[c][d][e],
					       nlf_core_bare(c, d, e) ? "core" : "MODULE");
	close(fd);
	return lost || maint_silent || module_bare || escalated ? 1 : 0;
}
