/* SPDX-License-Identifier: GPL-2.0 */
/* loom-sim: the card's own link parameters, for --links card. */
#ifndef LOOM_SIM_CARD_LINKS_H
#define LOOM_SIM_CARD_LINKS_H

struct link_params;

/* The link unit parameters the card is built with (card_params_default). */
void sim_card_link_params(struct link_params *lp);

#endif
