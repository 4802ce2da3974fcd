// SPDX-License-Identifier: GPL-2.0
/*
 * BSU state machine (pure logic) and its glue to registers and ports.
 *
 * A router joins the barrier of a unit toward its parent when every child
 * in the unit's tree register has joined; the root instead completes the
 * barrier and broadcasts completion down the tree.  The first eureka of a
 * round goes up the same way (later ones are absorbed) and the root
 * broadcasts it down.  Documented in Documentation/hw/bsu.rst.
 */
#include "bsu.h"
#include "card.h"

#include <string.h>

#define BSU_PORTS_MASK	0xffu

void bsu_unit_reset(struct bsu_unit *u)
{
	memset(u, 0, sizeof(*u));
	u->state = LOOM_BSU_S_BAR;
}

static void emit(struct bsu_out *out, uint8_t op, uint32_t ports)
{
	ports &= BSU_PORTS_MASK;
	if (!ports || out->n == BSU_OUT_MAX)
		return;
	out->msg[out->n].op = op;
	out->msg[out->n].ports = (uint8_t)ports;
	out->n++;
}

static bool is_root(struct bsu_tree t)
{
	return t.parent == LOOM_BSU_ROOT;
}

/* Completion reaches this router: pass it down, update the local unit. */
static void complete(struct bsu_unit *u, struct bsu_tree t, struct bsu_out *out)
{
	emit(out, LOOM_BSU_WIRE_BAR_DOWN, t.children);
	u->arrived = 0;
	u->eureka = false;
	if (t.children & LOOM_BSU_CHILD_HOST) {
		if (u->state == LOOM_BSU_S_ARM)
			u->state = LOOM_BSU_S_BAR;
		u->completions++;
		out->host_event = true;
	}
}

/* A eureka reaches this router from above (or it is the root). */
static void eureka_down(struct bsu_unit *u, struct bsu_tree t, struct bsu_out *out)
{
	u->eureka = true;
	emit(out, LOOM_BSU_WIRE_EUR_DOWN, t.children);
	if (t.children & LOOM_BSU_CHILD_HOST) {
		if (u->state == LOOM_BSU_S_BAR)
			u->state = LOOM_BSU_S_EUR;
		u->eurekas++;
		out->host_event = true;
	}
}

static void child_joins(struct bsu_unit *u, struct bsu_tree t, uint16_t child,
			struct bsu_out *out)
{
	u->arrived |= child;
	if ((u->arrived & t.children) != t.children)
		return;
	u->arrived = 0;
	if (is_root(t))
		complete(u, t, out);
	else
		emit(out, LOOM_BSU_WIRE_BAR_UP, 1u << t.parent);
}

static void child_eureka(struct bsu_unit *u, struct bsu_tree t, struct bsu_out *out)
{
	if (u->eureka)
		return;		/* this round's eureka already went up */
	u->eureka = true;
	if (is_root(t))
		eureka_down(u, t, out);
	else
		emit(out, LOOM_BSU_WIRE_EUR_UP, 1u << t.parent);
}

bool bsu_local_op(struct bsu_unit *u, struct bsu_tree t, uint32_t op, struct bsu_out *out)
{
	bool armed = u->state == LOOM_BSU_S_ARM;

	memset(out, 0, sizeof(*out));
	if (!(t.children & LOOM_BSU_CHILD_HOST) || armed)
		goto illegal;
	switch (op) {
	case LOOM_BSU_OP_BAR:
		u->state = LOOM_BSU_S_ARM;
		child_joins(u, t, LOOM_BSU_CHILD_HOST, out);
		return true;
	case LOOM_BSU_OP_EUR:
		if (u->state == LOOM_BSU_S_EUR)
			return true;	/* the eureka has happened already */
		u->state = LOOM_BSU_S_EUR;
		child_eureka(u, t, out);
		return true;
	case LOOM_BSU_OP_EUR_B:
		if (u->state == LOOM_BSU_S_BAR)
			child_eureka(u, t, out);
		u->state = LOOM_BSU_S_ARM;
		child_joins(u, t, LOOM_BSU_CHILD_HOST, out);
		return true;
	}
illegal:
	u->illegal++;
	return false;
}

/* A card of another partition refused this subtree's packet: the round ends. */
static void refused_from_above(struct bsu_unit *u, struct bsu_tree t, struct bsu_out *out)
{
	emit(out, LOOM_BSU_WIRE_REFUSED, t.children);
	u->arrived = 0;
	u->eureka = false;
	if (t.children & LOOM_BSU_CHILD_HOST) {
		u->refused++;
		if (u->state == LOOM_BSU_S_ARM) {
			u->state = LOOM_BSU_S_BAR;
			u->completions++;
		}
		out->host_event = true;
	}
}

bool bsu_wire_in(struct bsu_unit *u, struct bsu_tree t, unsigned int in_port,
		 unsigned int wire_op, struct bsu_out *out)
{
	bool from_child = in_port < LOOM_MAX_PORTS && (t.children & (1u << in_port));
	bool from_parent = !is_root(t) && in_port == t.parent;

	memset(out, 0, sizeof(*out));
	switch (wire_op) {
	case LOOM_BSU_WIRE_BAR_UP:
		if (!from_child)
			return false;
		child_joins(u, t, (uint16_t)(1u << in_port), out);
		return true;
	case LOOM_BSU_WIRE_EUR_UP:
		if (!from_child)
			return false;
		child_eureka(u, t, out);
		return true;
	case LOOM_BSU_WIRE_BAR_DOWN:
		if (!from_parent)
			return false;
		complete(u, t, out);
		return true;
	case LOOM_BSU_WIRE_EUR_DOWN:
		if (!from_parent)
			return false;
		eureka_down(u, t, out);
		return true;
	case LOOM_BSU_WIRE_REFUSED:
		if (from_parent)
			refused_from_above(u, t, out);
		return from_parent || from_child;
	}
	return false;
}

/* ---- glue ------------------------------------------------------------- */

static uint32_t tree_reg(unsigned int bsu, uint32_t field)
{
	return CARD_OFF_BSU + LOOM_BSU_TREE_BASE + bsu * LOOM_BSU_TREE_SIZE + field;
}

static uint32_t page_reg(unsigned int bsu, uint32_t field)
{
	return CARD_BSU_AREA + bsu * LOOM_BSU_PAGE_SIZE + field;
}

static uint32_t unit_key(const struct card *c, unsigned int bsu)
{
	return card_rd32(c, CARD_OFF_BSU + LOOM_BSU_KEY_BASE + 4 * bsu);
}

static bool unit_owned(const struct card *c, unsigned int bsu)
{
	return card_rd32(c, CARD_OFF_BSU + LOOM_BSU_OWNED) & (1u << bsu);
}

static struct bsu_tree read_tree(const struct card *c, unsigned int bsu)
{
	struct bsu_tree t = {
		.children = (uint16_t)(card_rd32(c, tree_reg(bsu, LOOM_BSUT_CHILDREN)) &
				       LOOM_BSU_CHILDREN_MASK),
		.parent = (uint8_t)(card_rd32(c, tree_reg(bsu, LOOM_BSUT_PARENT)) & 0xf),
	};

	return t;
}

/* Registers follow the unit; the counters last, so a reader that sees a
 * counter move sees the state that goes with it.
 */
static void mirror(struct card *c, unsigned int bsu)
{
	const struct bsu_unit *u = &c->bsu.unit[bsu];

	card_wr32(c, tree_reg(bsu, LOOM_BSUT_ARRIVED), u->arrived);
	card_wr32(c, tree_reg(bsu, LOOM_BSUT_FLAGS), u->eureka ? LOOM_BSUT_F_EUREKA : 0);
	card_wr32(c, page_reg(bsu, LOOM_BSUP_STATE), u->state);
	card_wr32(c, page_reg(bsu, LOOM_BSUP_ILLEGAL), u->illegal);
	card_wr32(c, page_reg(bsu, LOOM_BSUP_REFUSED), u->refused);
	card_wr32(c, page_reg(bsu, LOOM_BSUP_EUREKAS), u->eurekas);
	card_wr32(c, page_reg(bsu, LOOM_BSUP_COMPLETIONS), u->completions);
}

static bool send_one(struct card *c, unsigned int port, struct bsu_wire w)
{
	struct loom_pkt_hdr h = {
		.type = LOOM_PKT_BARRIER,
		.class = LOOM_CLASS_BARRIER,
		.src_node = card_logical_id(c),
		.dst_node = (uint16_t)port,	/* the router sends it out of this port */
		.key = w.key,
		.hops = 1,
		.aux = w.aux,
	};

	return card_port_up(c, port) && hostport_room(&c->hp, LOOM_CLASS_BARRIER) &&
	       card_inject(c, &h, NULL);
}

/* Send what a port's FIFO holds, in order, until the port refuses one. */
static void flush_port(struct card *c, unsigned int port)
{
	struct bsu_fifo *f = &c->bsu.fifo[port];

	while (f->count && send_one(c, port, f->v[f->head])) {
		f->head = (f->head + 1) % BSU_PORT_FIFO;
		f->count--;
	}
}

/* Queue barrier packet @w for port @p, in order behind what waits there. */
static void queue_wire(struct card *c, unsigned int bsu, unsigned int p, struct bsu_wire w)
{
	struct bsu_fifo *f = &c->bsu.fifo[p];

	if (p >= c->n_ports || f->count == BSU_PORT_FIFO) {
		if (c->bsu.lost++ < 8)
			card_log(c, "bsu %u: barrier op %u for port %u lost (%s)", bsu,
				 (w.aux >> 8) & 0xff, p,
				 p >= c->n_ports ? "no such port: fix the tree register"
						 : "port held too long");
		return;
	}
	f->v[(f->head + f->count) % BSU_PORT_FIFO] = w;
	f->count++;
	flush_port(c, p);
}

/*
 * Send what @out asks for, stamped with partition @key; a REFUSED passed
 * on down names the op refused above (@refused_op).  Update registers.
 */
static void queue_out(struct card *c, unsigned int bsu, const struct bsu_out *out, uint32_t key,
		      uint32_t refused_op)
{
	for (unsigned int i = 0; i < out->n; i++) {
		struct bsu_wire w = { .aux = bsu | (uint32_t)out->msg[i].op << 8, .key = key };

		if (out->msg[i].op == LOOM_BSU_WIRE_REFUSED)
			w.aux |= refused_op << 16;

		for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++)
			if (out->msg[i].ports & (1u << p))
				queue_wire(c, bsu, p, w);
	}
	if (out->host_event)
		c->vectors_pending |= 1u << LOOM_VEC_EVENT;
	mirror(c, bsu);
}

static void init_units(struct card *c)
{
	memset(&c->bsu, 0, sizeof(c->bsu));
	for (unsigned int b = 0; b < LOOM_BSU_COUNT; b++) {
		bsu_unit_reset(&c->bsu.unit[b]);
		/* power-on tree: the local host alone, a barrier of one */
		card_wr32(c, tree_reg(b, LOOM_BSUT_CHILDREN), LOOM_BSU_CHILD_HOST);
		card_wr32(c, tree_reg(b, LOOM_BSUT_PARENT), LOOM_BSU_ROOT);
		card_wr32(c, CARD_OFF_BSU + LOOM_BSU_KEY_BASE + 4 * b, 0);
		card_wr32(c, page_reg(b, LOOM_BSUP_OP), 0);
		mirror(c, b);
	}
	card_wr32(c, CARD_OFF_BSU + LOOM_BSU_OWNED, 0);
	card_wr32(c, CARD_OFF_BSU + LOOM_BSU_BAD_PKTS, 0);
}

void bsu_init(struct card *c)
{
	card_wr32(c, CARD_OFF_BSU + LOOM_BLK_TYPE, LOOM_BLK_BSU);
	card_wr32(c, CARD_OFF_BSU + LOOM_BLK_VERSION, LOOM_BSU_VERSION);
	card_wr32(c, CARD_OFF_BSU + LOOM_BLK_NEXT, CARD_OFF_MR);
	card_wr32(c, CARD_OFF_BSU + LOOM_BLK_SIZE, LOOM_BSU_SIZE);
	card_wr32(c, CARD_OFF_BSU + LOOM_BSU_N_UNITS, LOOM_BSU_COUNT);
	card_wr32(c, CARD_OFF_BSU + LOOM_BSU_PAGE_AREA, CARD_BSU_AREA);
	card_wr32(c, CARD_OFF_BSU + LOOM_BSU_PAGE_STRIDE, LOOM_BSU_PAGE_SIZE);
	init_units(c);
}

void bsu_reset(struct card *c)
{
	init_units(c);
}

void bsu_service(struct card *c)
{
	for (unsigned int b = 0; b < LOOM_BSU_COUNT; b++) {
		uint32_t op = card_rd32(c, page_reg(b, LOOM_BSUP_OP));
		struct bsu_out out;

		if (!op)
			continue;
		if (!bsu_local_op(&c->bsu.unit[b], read_tree(c, b), op, &out) && c->verbose)
			card_log(c, "bsu %u: op %u illegal in state %u; ignored", b, op,
				 c->bsu.unit[b].state);
		queue_out(c, b, &out, unit_key(c, b), 0);
		/* consumed last: software that sees 0 sees the op's effect */
		card_wr32(c, page_reg(b, LOOM_BSUP_OP), 0);
	}
	for (unsigned int p = 0; p < c->n_ports; p++)
		flush_port(c, p);
}

/* Is the barrier packet's aux well formed (REFUSED names the op it refuses)? */
static bool aux_ok(uint64_t aux)
{
	unsigned int op = (unsigned int)(aux >> 8) & 0xff, refused = (unsigned int)(aux >> 16);

	if (op == LOOM_BSU_WIRE_REFUSED)
		return refused >= LOOM_BSU_WIRE_BAR_UP && refused <= LOOM_BSU_WIRE_EUR_DOWN;
	return !refused;
}

/*
 * A packet of another partition for an owned unit: it has no effect on the
 * unit; counted, and its sender is told (a refusal is never answered).
 */
static void refuse(struct card *c, const struct loom_pkt_hdr *h, unsigned int bsu,
		   unsigned int in_port)
{
	unsigned int op = (unsigned int)(h->aux >> 8) & 0xff;

	card_drop_count(c, LOOM_CNT_DROP_BSU_KEY);
	if (c->verbose)
		card_log(c, "bsu %u: barrier op %u from port %u refused: key 0x%x, the unit is in partition 0x%x",
			 bsu, op, in_port, h->key, unit_key(c, bsu));
	if (op != LOOM_BSU_WIRE_REFUSED)
		queue_wire(c, bsu, in_port, (struct bsu_wire){
			.aux = bsu | LOOM_BSU_WIRE_REFUSED << 8 | op << 16, .key = h->key,
		});
}

void bsu_receive(struct card *c, const struct loom_pkt_hdr *h, int in_port)
{
	unsigned int bsu = (unsigned int)(h->aux & 0xff);
	unsigned int op = (unsigned int)(h->aux >> 8) & 0xff;
	struct bsu_out out;

	if (h->type == LOOM_PKT_BARRIER && !h->len && in_port >= 0 && aux_ok(h->aux) &&
	    bsu < LOOM_BSU_COUNT) {
		bool owned = unit_owned(c, bsu);

		/* the partition first: a foreign packet never reaches the unit */
		if (owned && h->key != unit_key(c, bsu)) {
			refuse(c, h, bsu, (unsigned int)in_port);
			return;
		}
		if (bsu_wire_in(&c->bsu.unit[bsu], read_tree(c, bsu), (unsigned int)in_port, op,
				&out)) {
			queue_out(c, bsu, &out, owned ? unit_key(c, bsu) : h->key,
				  (uint32_t)(h->aux >> 16) & 0xff);
			return;
		}
	}
	c->bsu.bad_pkts++;
	card_wr32(c, CARD_OFF_BSU + LOOM_BSU_BAD_PKTS, c->bsu.bad_pkts);
	if (c->verbose)
		card_log(c, "barrier packet type %u len %u aux 0x%llx from port %d does not fit the tree; dropped",
			 h->type, h->len, (unsigned long long)h->aux, in_port);
}
