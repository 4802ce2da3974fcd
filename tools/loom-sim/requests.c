// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: request/response traffic, the options and the packet types.
 * A GET or AMO request is the smallest packet (or --packet-flits); its
 * destination answers with a GET_RESP or AMO_RESP of --response-flits.
 * With the card's VC model requests travel on the request class's VCs and
 * responses on the response class's, as the card keeps them apart; merged,
 * responses travel in the request class (the configuration that can
 * deadlock: a sink whose response queue is full stops taking requests).
 */
#include "sim.h"

#include <string.h>

const char *sim_requests_name(enum sim_requests r)
{
	return r == SIM_GET ? "get" : r == SIM_AMO ? "amo" : "put";
}

bool sim_is_request(uint8_t type)
{
	return type == LOOM_PKT_GET_REQ || type == LOOM_PKT_AMO_REQ;
}

bool sim_is_response(uint8_t type)
{
	return type == LOOM_PKT_GET_RESP || type == LOOM_PKT_AMO_RESP;
}

uint8_t sim_response_type(uint8_t type)
{
	return type == LOOM_PKT_AMO_REQ ? LOOM_PKT_AMO_RESP : LOOM_PKT_GET_RESP;
}

bool sim_answers(const struct sim *s)
{
	return s->cfg.requests != SIM_PUT || s->cfg.nreplay;
}

int sim_requests_build(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	unsigned int fb = s->params.flit_bytes;
	unsigned int min_flits = (LOOM_PKT_HDR_SIZE + fb - 1) / fb;
	unsigned int max_flits = router_max_packet_flits(fb);

	s->inject_vc = LOOM_VC_REQ0;
	s->resp_vc = LOOM_VC_REQ0;
	s->response_flits = c->response_flits ? c->response_flits : min_flits;
	if (!sim_answers(s))
		return 0;
	if (s->response_flits < min_flits || s->response_flits > max_flits) {
		snprintf(err, errlen, "--response-flits %u: with %u-byte flits a packet has %u..%u "
			 "flits (the %d-byte header, up to %d payload bytes)", s->response_flits,
			 fb, min_flits, max_flits, LOOM_PKT_HDR_SIZE, LOOM_PKT_MAX_PAYLOAD);
		return -1;
	}
	if (!c->outstanding || !c->resp_queue) {
		snprintf(err, errlen, "--%s 0: a terminal needs room for at least one %s",
			 c->outstanding ? "response-queue" : "outstanding",
			 c->outstanding ? "response" : "request in flight");
		return -1;
	}
	if (!c->merged_classes) {
		if (!s->params.vc_model) {
			snprintf(err, errlen, "--requests %s with separate classes needs the "
				 "card's VC model (--router card): generic VCs carry every class "
				 "alike; use --classes merged to run them", sim_requests_name(c->requests));
			return -1;
		}
		s->resp_vc = LOOM_VC_RESP0;
	}
	return 0;
}
