/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the host-port harness (equiv_hostport.cpp): the C model's
 * host port (card/hostport.c) on a card of its own that holds nothing else,
 * whose card_host_deliver() records the packet the host port hands over.
 * A C interface, so the C++ harness needs none of the card's headers.
 */
#ifndef LOOM_RTL_EQUIV_HOSTPORT_MODEL_H
#define LOOM_RTL_EQUIV_HOSTPORT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HPM_LEVELS	3	/* HOSTPORT_LEVELS: 0 barrier, 1 responses, 2 requests */
#define HPM_VCS		8	/* CHAN_VCS_MAX */
#define HPM_FLIT_MAX	64	/* FLIT_BYTES_MAX */

extern const unsigned int hpm_hdr_size;		/* LOOM_PKT_HDR_SIZE */
extern const unsigned int hpm_payload_max;	/* LOOM_PKT_MAX_PAYLOAD */
extern const unsigned int hpm_pkt_bytes;	/* a reassembled packet's buffer */
extern const uint8_t hpm_level_vc[HPM_LEVELS];	/* the VC of each level */
extern const uint8_t hpm_level_class[HPM_LEVELS];	/* the class of each level */
extern const uint8_t hpm_class_maint;		/* LOOM_CLASS_MAINT: no level */

struct hpm_flit {
	bool valid, head, tail;
	uint8_t vc;
	uint8_t data[HPM_FLIT_MAX];
};

/* The host port's outputs and state after an edge. */
struct hpm_state {
	struct hpm_flit out;			/* toward the router's host input */
	uint8_t back_credits[HPM_VCS];		/* freed toward the router's host output */
	bool ready;
	uint32_t credits[HPM_LEVELS];		/* of each level's VC */
	unsigned int queued[HPM_LEVELS], done[HPM_LEVELS];
	bool pop_next[HPM_LEVELS];		/* the next edge sends the last flit of its head */
	bool room[4];				/* hostport_room() of classes 0 .. 3 */
	bool busy;
	uint64_t malformed, injected, delivered;
	/* the packet delivered at the edge */
	bool dlv;
	unsigned int dlv_vc, dlv_flits;
	const uint8_t *dlv_bytes;		/* dlv_flits x flit bytes */
};

struct hpm;

/* The host port of a router with @flit_bytes, host input @buf_depth, host output @depth. */
struct hpm *hpm_new(unsigned int flit_bytes, unsigned int buf_depth, unsigned int depth);
void hpm_free(struct hpm *m);
/* One edge: hostport_step() with the router's flit @in and the credits it freed. */
void hpm_step(struct hpm *m, const struct hpm_flit *in, const uint8_t credits[HPM_VCS]);
/* hostport_send() of the packet @pkt (header, then its payload of the header's len). */
bool hpm_send(struct hpm *m, const uint8_t *pkt);
void hpm_state(const struct hpm *m, struct hpm_state *s);

#ifdef __cplusplus
}
#endif

#endif
