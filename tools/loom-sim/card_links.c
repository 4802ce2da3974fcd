// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: the card's own link parameters (card_links.h).  Compiled with
 * the card's include paths first (Makefile), apart from the simulator's
 * other sources, whose loom-fm headers share names with the card's.
 */
#include "card_links.h"

#include "card/card.h"

void sim_card_link_params(struct link_params *lp)
{
	struct card_params cp;

	card_params_default(&cp, 0, 1);
	*lp = cp.link;
}
