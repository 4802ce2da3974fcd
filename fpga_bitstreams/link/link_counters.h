/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The link unit's performance and error counters, as hardware has them:
 * one table (LINK_COUNTERS) for the fields, their names in statistics and
 * the documentation check.  All count from reset and wrap at 2^64.
 */
#ifndef LOOM_LINK_COUNTERS_H
#define LOOM_LINK_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* X(field, description) */
#define LINK_COUNTERS(X) \
	X(tx_frames, "frames put on the lanes, of every type") \
	X(tx_bytes, "bytes put on the lanes") \
	X(tx_data_frames, "DATA frames sent, replays included") \
	X(tx_packets, "packets taken from the router") \
	X(tx_flits, "flits taken from the router") \
	X(rx_frames, "frames received with a good CRC") \
	X(rx_bytes, "bytes of frames received with a good CRC") \
	X(rx_packets, "DATA frames accepted in sequence") \
	X(rx_flits, "flits delivered to the router") \
	X(replayed, "DATA frames sent again by go-back-N") \
	X(retries, "go-back-N rewinds (a NAK or the ack timer)") \
	X(ack_timeouts, "rewinds by the ack timer") \
	X(naks_sent, "NAK frames sent") \
	X(naks_received, "NAK frames received") \
	X(crc_errors, "received frames with a bad magic, length or CRC") \
	X(seq_errors, "DATA frames discarded ahead of the expected sequence number") \
	X(duplicates, "DATA frames discarded as already delivered") \
	X(acks_piggybacked, "acknowledgements carried by DATA frames") \
	X(acks_standalone, "acknowledgements that needed a frame of their own") \
	X(credits_piggybacked, "credit counts carried by DATA frames") \
	X(credits_standalone, "ACK_CREDIT frames that carried new credits") \
	X(status_frames, "ACK_CREDIT frames sent") \
	X(polls_sent, "ACK_CREDIT frames sent asking for the peer's credits") \
	X(polls_received, "credit polls answered") \
	X(credit_starved_cycles, "cycles the lanes idled while the next packet, or a VC, lacked the peer's credit") \
	X(replay_full_cycles, "cycles a packet waited for room in the replay buffer") \
	X(lost_frames, "packets the transmitter held (unacknowledged or waiting) when the cable went down") \
	X(trains, "times the link came up") \
	X(lane_notices, "lane notices sent after this end dropped a lane") \
	X(bad_ack, "frames dropped: acknowledgement outside the window") \
	X(bad_credit, "frames dropped: impossible VC or credit beyond the buffer") \
	X(bad_vc, "frames dropped: packet on a VC the link does not carry") \
	X(bad_length, "frames dropped: body length not what the type or packet says") \
	X(bad_type, "frames dropped: unknown type, flags or lane count") \
	X(credit_overruns, "packets dropped: the peer sent without credit") \
	X(not_up_drops, "frames dropped because the link was not up") \
	X(maint_lost, "maintenance frames lost: slot busy or link not up") \
	X(rx_overflows, "received bytes dropped: receive buffer full") \
	X(tx_malformed, "flit sequences from the router dropped as malformed") \
	X(router_credit_errors, "credits the router returned for flits it did not hold")

struct link_counters {
#define LINK_COUNTER_FIELD(f, desc) uint64_t f;
	LINK_COUNTERS(LINK_COUNTER_FIELD)
#undef LINK_COUNTER_FIELD
};

struct link_counter_info {
	const char *name;
	const char *desc;
	size_t offset;
};

extern const struct link_counter_info link_counter_table[];
extern const unsigned int link_counter_count;

#endif
