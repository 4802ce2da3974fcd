# SPDX-License-Identifier: GPL-2.0
# The router RTL (included by fpga_bitstreams/Makefile):
#   rtl-gen      the Verilog headers generated from the C sources
#   rtl-harness  the Verilated equivalence harness and its mutant build
#                (part of rtl-tests; cached by content under ~/.cache/loom/rtl)
#   rtl-equiv-router  the router-top harness, one build per configuration
#                and its mutants (cached the same way; not part of 'tests')
#   rtl-equiv-check  the router-top builds make check steps: the 2-D
#                torus, tiled and high-radix configurations and the torus
#                mutant (part of rtl-tests; cached the same way)
#   rtl-equiv    the router-top campaign, short; rtl-equiv-long: 10^6
#                cycles a seed
#   rtl-lint     verilator --lint-only -Wall of every unit and the router top
#   synth        Yosys synth_xilinx of the card router (or the router at
#                SYNTH_PARAMS), one process a unit, resource report per
#                unit (the card's takes long, its VC allocator the most;
#                the units cached by content)
#   synth-units  Yosys synth_xilinx of each unit at the card's sizes, resource
#                report per unit (a few minutes: the frame serialiser is most)
#   rtl-board    the board top (board/) Verilated with its pin-level test
#                (part of rtl-tests; cached like the harness)
#   rtl-hostport the host port's harness at two configurations and its
#                mutant (part of rtl-tests; cached like the harness)
#   rtl-tests    what the tests of tests/rtl step: rtl-harness, rtl-board,
#                rtl-equiv-check, rtl-hostport and rtl-card (tests/rtl/prepare
#                builds it while the other levels of tests/run-tests run)
#   rtl-card     the card emulator's RTL router plugin (loom-card --router
#                rtl; cached like the harness; tests/vm/prepare builds it too)
#   rtl-postsynth  the router's iCE40 netlist (synth_ice40 at the
#                bitstream's configuration, PORTS 2) in the router-top
#                harness, 2 seeds of 10^4 cycles (cached by content)
#   rtl-threeway  one traffic through a 4x4 torus of emulated cards, of
#                loom-sim's model routers and of Verilated routers, latencies
#                compared packet for packet (cached like the harness)
#   bitstream    the board top for the iCE40-HX8K breakout board: Yosys
#                synth_ice40, nextpnr-ice40, icepack, icetime; prints the
#                utilisation and Fmax
# Documented in Documentation/hw/rtl.rst.
RTL_DIR     := $(SRC_DIR)/rtl
RTL_BUILD   := $(BUILD)/rtl
RTL_GEN_DIR := $(RTL_BUILD)/gen
# Verilated builds are keyed by the content they read, so one cache serves
# every tree and every clean build on this machine.
RTL_CACHE   ?= $(or $(LOOM_RTL_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/loom/rtl)
RTL_GEN     := $(RTL_BUILD)/rtl_gen
RTL_SV      := $(sort $(wildcard $(RTL_DIR)/*.sv))
RTL_VH      := $(wildcard $(RTL_DIR)/*.vh)
RTL_GEN_SRCS := $(RTL_DIR)/gen/rtl_gen.c $(RTL_DIR)/gen/rtl_consts.c $(SRC_DIR)/router/params.c \
                $(SRC_DIR)/link/link_params.c
RTL_GEN_FILES := loom_hw.vh loom_router_checks.vh loom_link_checks.vh loom_router_info.vh \
                 loom_hw_drift.vh
RTL_GEN_OUT := $(addprefix $(RTL_GEN_DIR)/,$(RTL_GEN_FILES))
# the host port's queue sizes: read by loom_host_port alone, kept out of
# RTL_GEN_OUT so that the router's builds are not keyed by them
RTL_GEN_HP  := $(RTL_GEN_DIR)/loom_hostport.vh

# the link layer's units (the unit harness steps them), not part of the router
RTL_LINK_SV  := $(RTL_DIR)/loom_crc32c.sv $(RTL_DIR)/loom_gbn_tx.sv $(RTL_DIR)/loom_gbn_rx.sv \
                $(RTL_DIR)/loom_link_credit.sv $(RTL_DIR)/loom_lanes.sv \
                $(RTL_DIR)/loom_link_xmit_serialise.sv $(RTL_DIR)/loom_link_xmit_assemble.sv \
                $(RTL_DIR)/loom_link_rx_framer.sv $(RTL_DIR)/loom_link_xmit_build.sv \
                $(RTL_DIR)/loom_link_xmit_replay.sv $(RTL_DIR)/loom_link_recv_deliver.sv \
                $(RTL_DIR)/loom_link_recv.sv
# the host port (card/hostport.c), not part of the router
RTL_HP_SV    := $(RTL_DIR)/loom_host_port.sv
# yosys-config comes with yosys-dev; without it, the share/ beside the binary
YOSYS_DATDIR  := $(or $(shell yosys-config --datdir 2>/dev/null),\
                      $(abspath $(dir $(shell command -v yosys 2>/dev/null))/../share/yosys))
# credit counter B of the unit harness as Yosys's iCE40 netlist: the
# post-synthesis check's flow on one small unit (rules below)
RTL_UNIT_NL    := $(RTL_BUILD)/loom_credit_counter-ice40.v
RTL_UNIT_NL_SV := $(RTL_UNIT_NL:.v=-wrap.v) $(RTL_UNIT_NL:.v=-cells.v) \
                  $(YOSYS_DATDIR)/ice40/cells_sim.v
# the units the unit harness steps, and the C model it links
RTL_UNITS_SV := $(RTL_DIR)/harness/loom_equiv_units.sv $(RTL_DIR)/loom_flit_fifo.sv \
                $(RTL_DIR)/loom_credit_counter.sv $(RTL_DIR)/loom_arbiter.sv $(RTL_LINK_SV) \
                $(RTL_UNIT_NL_SV)
RTL_UNITS_C  := router/arbiter.c router/params.c $(LINK_SRCS) rtl/gen/rtl_consts.c
# the serialisers' traffic: two link units on a wire with their routers'
# sources and sinks (the link unit tests' harness)
RTL_XSER_O   := $(RTL_BUILD)/obj/tests/link_harness.o $(RTL_BUILD)/obj/harness/equiv_xser.o
# the receivers' framers: the C model's parser and its byte stream
RTL_XSER_O   += $(RTL_BUILD)/obj/harness/equiv_rxf.o
# the packet assemblers' flits: a link pair again, its flits made malformed
RTL_XSER_O   += $(RTL_BUILD)/obj/harness/equiv_xasm.o
# the frame builders' link pairs, read between the transmitter's parts
RTL_XSER_O   += $(RTL_BUILD)/obj/harness/equiv_xbld.o
# the delivery queues' link pairs, their routers' inputs not ready now and then
RTL_XSER_O   += $(RTL_BUILD)/obj/harness/equiv_rdlv.o
# the frame checkers' link pairs, their peers' frames made bad on the wire
RTL_XSER_O   += $(RTL_BUILD)/obj/harness/equiv_rcv.o
RTL_UNITS_O  := $(addprefix $(RTL_BUILD)/obj/,$(RTL_UNITS_C:.c=.o)) $(RTL_XSER_O)
RTL_HARNESS  := $(RTL_BUILD)/equiv_units
# the mutant: one build with every unit's mutation (each is local to its
# unit), checked one unit at a time (equiv_units --units NAME)
RTL_MUTATE_DEFS := LOOM_MUTATE_ARBITER LOOM_MUTATE_CREDIT LOOM_MUTATE_CRC LOOM_MUTATE_GBN \
                   LOOM_MUTATE_LINK_CREDIT LOOM_MUTATE_LANES LOOM_MUTATE_LINK_TX
RTL_MUTATE_DEFS += LOOM_MUTATE_LINK_RX LOOM_MUTATE_LINK_XMIT LOOM_MUTATE_LINK_BUILD \
                   LOOM_MUTATE_LINK_REPLAY LOOM_MUTATE_LINK_DELIVER LOOM_MUTATE_LINK_RECV
RTL_MUTANTS  := $(RTL_BUILD)/equiv_units-mutate
# the C++ flags of every Verilated build but their optimisation level
RTL_CXXFLAGS := -std=c++17 -I$(TOP)/include -I$(SRC_DIR) -DLOOM_VERSION='\"$(LOOM_VERSION)\"'
# Verilator's C++ in files of up to 10^5 statements, not its default 2 x
# 10^4: each file parses verilated.h and the model's header again (1.1 to
# 1.5 CPU-s a file), so a build of half the files compiles in about three
# quarters of the CPU time (the torus router's mutant: 27 files, 98 CPU-s;
# 13 files, 74 CPU-s), at a higher peak memory (448 to 763 MB)
RTL_SPLIT    := --output-split 100000
RTL_VFLAGS   := -Wall --trace -O3 --x-assign fast --x-initial fast $(RTL_SPLIT) -I$(RTL_DIR) -I$(RTL_GEN_DIR) \
                -CFLAGS "-O2 $(RTL_CXXFLAGS)"

.PHONY: rtl-gen rtl-harness rtl-hostport rtl-tests rtl-equiv-router rtl-equiv-check rtl-equiv rtl-equiv-long rtl-lint synth synth-units \
	rtl-board bitstream rtl-postsynth rtl-threeway rtl-card FORCE

$(RTL_GEN): $(RTL_GEN_SRCS) $(HDRS) $(RTL_DIR)/rtl_regs.h $(RTL_DIR)/gen/rtl_consts.h
	@mkdir -p $(dir $@)
	$(CC) $(CARD_CFLAGS) -o $@ $(filter %.c,$^)

# regenerated whenever rtl_gen changes; a file is replaced only if its text changed
$(RTL_GEN_DIR)/.stamp: $(RTL_GEN)
	@mkdir -p $(RTL_GEN_DIR)/.new
	$(RTL_GEN) $(RTL_GEN_DIR)/.new
	@for f in $(RTL_GEN_FILES) $(notdir $(RTL_GEN_HP)); do cmp -s $(RTL_GEN_DIR)/.new/$$f $(RTL_GEN_DIR)/$$f || \
		cp $(RTL_GEN_DIR)/.new/$$f $(RTL_GEN_DIR)/$$f; done
	@touch $@
$(RTL_GEN_OUT) $(RTL_GEN_HP): $(RTL_GEN_DIR)/.stamp
rtl-gen: $(RTL_GEN_DIR)/.stamp

# The C objects the Verilated builds link are inputs of their cache keys:
# compiled with the tree's path mapped away (debug information, __FILE__),
# they are the same bytes in every clone, so a clone at another path finds
# the builds another one made.
RTL_OBJ_CFLAGS = $(CARD_CFLAGS) -ffile-prefix-map=$(TOP)/=
$(RTL_BUILD)/obj/%.o: $(SRC_DIR)/%.c $(HDRS) $(RTL_DIR)/rtl_regs.h $(RTL_DIR)/gen/rtl_consts.h
	@mkdir -p $(dir $@)
	$(CC) $(RTL_OBJ_CFLAGS) -c $< -o $@
$(RTL_BUILD)/obj/tests/%.o: $(TOP)/tests/unit/%.c $(TOP)/tests/unit/link_harness.h \
                            $(TOP)/tests/unit/tap.h $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(RTL_OBJ_CFLAGS) -I$(TOP)/tests/unit -c $< -o $@
$(RTL_BUILD)/obj/harness/%.o: $(RTL_DIR)/harness/%.c $(RTL_DIR)/harness/%.h $(RTL_DIR)/harness/equiv_draw.h \
                              $(RTL_DIR)/harness/equiv_traffic.h \
                              $(TOP)/tests/unit/link_harness.h $(TOP)/tests/unit/tap.h $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(RTL_OBJ_CFLAGS) -I$(TOP)/tests/unit -c $< -o $@

# what the harness reads: its key, so other parts of the card do not rebuild it
RTL_HARNESS_IN := $(RTL_UNITS_SV) $(RTL_DIR)/harness/netlist.vlt $(RTL_DIR)/loom_fifo.vh \
                  $(RTL_DIR)/loom_mutation.vh $(RTL_GEN_OUT) \
                  $(RTL_DIR)/harness/equiv_units.cpp $(RTL_DIR)/harness/equiv_common.h \
                  $(RTL_DIR)/harness/equiv_xser.h $(RTL_DIR)/harness/equiv_rxf.h \
                  $(RTL_DIR)/harness/equiv_xasm.h $(RTL_DIR)/harness/equiv_xbld.h \
                  $(RTL_DIR)/harness/equiv_rdlv.h $(RTL_DIR)/harness/equiv_rcv.h $(RTL_UNITS_O) $(RTL_DIR)/gen/rtl_consts.h \
                  $(wildcard $(SRC_DIR)/router/*.h) $(wildcard $(SRC_DIR)/link/*.h) \
                  $(TOP)/tests/unit/link_harness.h $(TOP)/tests/unit/tap.h \
                  $(wildcard $(TOP)/include/loom_hw/*.h)
# the netlist's cell models: their warnings off (netlist.vlt), their
# default pin values not (Verilator does not take them)
RTL_UNITS_VFLAGS := $(RTL_VFLAGS) -Wno-TIMESCALEMOD +define+NO_ICE40_DEFAULT_ASSIGNMENTS \
                    $(RTL_DIR)/harness/netlist.vlt
# vbuild.sh decides by content whether to verilate; make only calls it
$(RTL_BUILD)/equiv_units%: $(RTL_GEN_DIR)/.stamp $(RTL_UNITS_O) $(RTL_UNIT_NL_SV) FORCE
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) loom_equiv_units \
		$(if $*,$(patsubst -%,%,$*),rtl) -- $(RTL_UNITS_VFLAGS) \
		$(if $*,$(addprefix -D,$(RTL_MUTATE_DEFS))) \
		$(if $*,-CFLAGS -O0 -MAKEFLAGS "$(RTL_MUTANT_OPT)") \
		$(RTL_UNITS_SV) $(RTL_DIR)/harness/equiv_units.cpp $(RTL_UNITS_O) -- $(RTL_HARNESS_IN)
$(RTL_HARNESS): $(RTL_GEN_DIR)/.stamp $(RTL_UNITS_O) $(RTL_UNIT_NL_SV) FORCE
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) loom_equiv_units rtl -- $(RTL_UNITS_VFLAGS) \
		-MAKEFLAGS "$(RTL_HARNESS_OPT)" $(RTL_UNITS_SV) $(RTL_DIR)/harness/equiv_units.cpp $(RTL_UNITS_O) -- $(RTL_HARNESS_IN)

# Verilator compiles the code it marks slow (construction, initial values,
# the trace's declarations: run once, and more than half of the C++) with
# OPT_SLOW, the code run every cycle and the harness with OPT_FAST: the
# slow code without optimisation, the rest at -O1 (a router's largest file
# compiles in 3.6 CPU-s at -O1 against 5.0 at Verilator's -Os).
RTL_HARNESS_OPT := OPT_FAST=-O1 OPT_SLOW=-O0

# The mutant runs only until the harness finds the first difference in the
# unit it checks (within a few thousand cycles for each unit here), so its
# C++ is compiled without optimisation: a fifth of the build's CPU time.
RTL_MUTANT_OPT := OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0

rtl-harness: $(RTL_HARNESS) $(RTL_MUTANTS)

# what the tests of tests/rtl step (tests/rtl/prepare builds it)
rtl-tests: rtl-harness rtl-board rtl-equiv-check rtl-hostport rtl-card

# the host-port harness (harness/equiv_hostport.cpp) at the card's host
# port (16-byte flits, the router's buffers of 24 flits), at 64-byte flits
# (a packet of a header alone is one flit; the flits do not divide the
# reassembly buffer) with buffers of 8, and the card's mutant, whose
# packets start with one credit too few; one Verilated build each, cached
# by content, the C++ for a short compile as the unit harness's
RTL_HP_G_card := FLIT_BYTES=16 BUF_DEPTH=24 DEPTH=24
RTL_HP_G_wide := FLIT_BYTES=64 BUF_DEPTH=8 DEPTH=8
RTL_HP_O  := $(RTL_BUILD)/obj/card/hostport.o $(RTL_BUILD)/obj/harness/equiv_hostport_model.o
RTL_HP_IN := $(RTL_HP_SV) $(RTL_GEN_OUT) $(RTL_GEN_HP) $(RTL_DIR)/harness/equiv_hostport.cpp \
             $(RTL_DIR)/harness/equiv_common.h $(RTL_DIR)/harness/equiv_hostport_model.h $(RTL_HP_O)
RTL_HP    := $(RTL_BUILD)/equiv_hostport
# $(call hp_build,OUT,VARIANT,PARAMS,DEFINES,MAKEFLAGS): one build of the host-port harness
hp_build = $(RTL_DIR)/harness/vbuild.sh $(1) $(RTL_CACHE) loom_host_port $(2) -- $(RTL_VFLAGS) \
	$(addprefix -G,$(3)) -CFLAGS "$(addprefix -DHP_,$(3))" $(4) -MAKEFLAGS "$(5)" \
	$(RTL_HP_SV) $(RTL_DIR)/harness/equiv_hostport.cpp $(RTL_HP_O) -- $(RTL_HP_IN)
$(RTL_HP): $(RTL_GEN_DIR)/.stamp $(RTL_HP_O) FORCE
	@$(call hp_build,$@,rtl,$(RTL_HP_G_card),,$(RTL_HARNESS_OPT))
$(RTL_HP)-wide: $(RTL_GEN_DIR)/.stamp $(RTL_HP_O) FORCE
	@$(call hp_build,$@,wide,$(RTL_HP_G_wide),,$(RTL_HARNESS_OPT))
$(RTL_HP)-mutate: $(RTL_GEN_DIR)/.stamp $(RTL_HP_O) FORCE
	@$(call hp_build,$@,mutate,$(RTL_HP_G_card),-DLOOM_MUTATE_HOSTPORT,$(RTL_MUTANT_OPT))
rtl-hostport: $(RTL_HP) $(RTL_HP)-wide $(RTL_HP)-mutate
.SECONDARY: $(RTL_HP_O)

# the router-top harness: one Verilated build per configuration, set by
# the -G flags alone (the harness reads them back from the INFO block);
# the routing table is held at 64 entries to keep the model small
RTL_EQ_SMALL := -GRT_ENTRIES=64 -GSTART_VC1_BITS=64
RTL_EQ_G_card        := $(RTL_EQ_SMALL)
RTL_EQ_G_torus       := $(RTL_EQ_SMALL) -GPORTS=5 -GVCS=4 -GVC_MODEL=0 -GORG=1
RTL_EQ_G_torus-tiled := $(RTL_EQ_SMALL) -GPORTS=5 -GVCS=4 -GVC_MODEL=0 -GROWS=2 -GCOLS=3 \
                        -GARB_SA_IN=3 -GARB_SA_OUT=1 -GARB_OUT=2 -GARB_VA_OUT=3 \
                        -GFLIT_BYTES=8 -GBUF_DEPTH=40
# the bitstream's configuration (board/loom_board_hx8k.sv) at PORTS 5,
# host + 4 network ports (the default bitstream has PORTS 4, the most that
# fit the HX8K), in the campaign and for the post-synthesis check below
RTL_EQ_G_ice40       := -GPORTS=5 -GVCS=2 -GVC_MODEL=0 -GFLIT_BYTES=8 -GBUF_DEPTH=2 -GWORMHOLE_VCS=3 \
                        -GORG=1 -GRT_ENTRIES=16 -GSTART_VC1_BITS=32 -GFP_TIMER_BITS=12 -GCREDIT_BITS=4 \
                        -GVALIANT=0 -GVC_COUNTERS=0 -GWAR=0 -GUPROUTE=0 -GMCAST=0
# a high-radix tile grid: host + 15 network ports on 4 x 4 tiles (the most
# ports narrow routing entries name), 2 wormhole VCs of 4 flits, 8-byte
# flits, row and column buffers of 4 flits, matrix subswitch arbiters and
# T3E output muxes: the tiles' row and column traffic at a small model
RTL_EQ_G_radix16     := $(RTL_EQ_SMALL) -GPORTS=16 -GVCS=2 -GVC_MODEL=0 -GFLIT_BYTES=8 -GBUF_DEPTH=4 \
                        -GWORMHOLE_VCS=3 -GROWS=4 -GCOLS=4 -GROW_DEPTH=4 -GCOL_DEPTH=4 \
                        -GARB_SA_OUT=1 -GARB_OUT=2
RTL_EQ_CONFIGS := card torus torus-tiled ice40 radix16
RTL_EQ_MUTANTS := card-mutate torus-mutate-valiant torus-mutate-ugal \
                  torus-mutate-war torus-mutate-uproute torus-mutate-mcast
RTL_EQ_BINS  := $(addprefix $(RTL_BUILD)/equiv_router-,$(RTL_EQ_CONFIGS) $(RTL_EQ_MUTANTS))
# what tests/rtl/test_rtl_equiv_router.sh steps in make check; the card
# router's cold build is about five times the torus's, so the mutant is
# the torus router's (the same round-robin arbiters and output units)
RTL_EQ_CHECK := torus torus-tiled radix16 torus-mutate
RTL_ROUTER_SV := $(filter-out $(RTL_DIR)/harness/% $(RTL_LINK_SV) $(RTL_HP_SV),$(RTL_SV))
RTL_ROUTER_C  := $(ROUTER_SRCS) rtl/gen/rtl_consts.c
RTL_ROUTER_O  := $(addprefix $(RTL_BUILD)/obj/,$(RTL_ROUTER_C:.c=.o))
RTL_EQ_IN := $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_GEN_OUT) $(RTL_DIR)/harness/equiv_router.cpp \
             $(RTL_DIR)/harness/equiv_common.h \
             $(RTL_ROUTER_O) $(RTL_DIR)/rtl_regs.h $(wildcard $(SRC_DIR)/router/*.h) \
             $(wildcard $(TOP)/include/loom_hw/*.h)
# equiv_router-CONFIG, -CONFIG-mutate (the arbiter and credit mutations in
# one build, each switched on at run time: equiv_router --mutate NAME) and
# -CONFIG-mutate-KIND (one mutation); a mutant's C++ without optimisation,
# as the unit harness's (it runs until its first difference)
RTL_EQ_SWITCHED := arbiter credit
$(RTL_BUILD)/equiv_router-%: $(RTL_GEN_DIR)/.stamp $(RTL_ROUTER_O) FORCE
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) loom_router $* -- $(RTL_VFLAGS) \
		$(RTL_EQ_G_$(firstword $(subst -mutate, ,$*))) \
		-MAKEFLAGS "$(if $(findstring -mutate,$*),$(RTL_MUTANT_OPT),$(RTL_HARNESS_OPT))" \
		$(if $(filter %-mutate,$*),$(addprefix -DLOOM_MUTATE_,ARBITER CREDIT) \
			-CFLAGS "-DLOOM_RTL_MUTATIONS='\"$(subst $(rtl_space),$(rtl_comma),$(RTL_EQ_SWITCHED))\"'") \
		$(if $(findstring mutate-valiant,$*),-DLOOM_MUTATE_VALIANT) \
		$(if $(findstring mutate-ugal,$*),-DLOOM_MUTATE_UGAL) \
		$(if $(findstring mutate-war,$*),-DLOOM_MUTATE_WAR) \
		$(if $(findstring mutate-uproute,$*),-DLOOM_MUTATE_UPROUTE) \
		$(if $(findstring mutate-mcast,$*),-DLOOM_MUTATE_MCAST) \
		$(RTL_ROUTER_SV) $(RTL_DIR)/harness/equiv_router.cpp $(RTL_ROUTER_O) -- $(RTL_EQ_IN)
rtl-equiv-router: $(RTL_EQ_BINS)
rtl-equiv-check: $(addprefix $(RTL_BUILD)/equiv_router-,$(RTL_EQ_CHECK))

# the router-top campaigns: short (2 seeds of 2 * 10^4 cycles a
# configuration, the regression seeds, the mutants) and long
rtl-equiv: rtl-equiv-router
	BUILD=$(BUILD) $(RTL_DIR)/harness/equiv_router_campaign.sh
rtl-equiv-long: rtl-equiv-router
	BUILD=$(BUILD) LOOM_RTL_EQUIV_CYCLES=1000000 LOOM_RTL_EQUIV_SEEDS=8 \
		$(RTL_DIR)/harness/equiv_router_campaign.sh
.SECONDARY: $(RTL_ROUTER_O)


# the same traffic through the cards, loom-sim, and loom-sim whose routers
# are the Verilated router (Documentation/sim/threeway.rst): the card's
# router with 4 network ports; cached by content like the harnesses
RTL_3W     := $(RTL_BUILD)/threeway-rtl
RTL_3W_G   := -GPORTS=5 -GBUF_DEPTH=152 -GROWS=2 -GCOLS=3 -GRT_ENTRIES=64 -GSTART_VC1_BITS=64
RTL_3W_LIB := $(BUILD)/obj/threeway/libthreeway.a $(BUILD)/lib/libloomfm.a $(LIB)
RTL_3W_IN  := $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_GEN_OUT) $(TOP)/tests/emu/sim/rtl_fabric.cpp \
              $(TOP)/tests/emu/sim/rtl_fabric.h $(RTL_DIR)/rtl_regs.h $(RTL_3W_LIB) \
              $(wildcard $(SRC_DIR)/router/*.h) $(wildcard $(TOP)/include/loom_hw/*.h)
$(RTL_3W): $(RTL_GEN_DIR)/.stamp $(LIB) FORCE
	$(MAKE) -C $(TOP)/tools/loom-sim threeway-lib
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) loom_router threeway -- $(RTL_VFLAGS) \
		$(RTL_3W_G) -CFLAGS -I$(TOP)/tests/emu/sim $(RTL_ROUTER_SV) \
		$(TOP)/tests/emu/sim/rtl_fabric.cpp $(RTL_3W_LIB) -LDFLAGS -lm -- $(RTL_3W_IN)
rtl-threeway: $(RTL_3W)
	$(RTL_3W)

# the card emulator's router as Verilated RTL (loom-card --router rtl): a
# shared object loom-card loads with dlopen (card/rtl_plugin.h), at the
# configuration of the VM lab's card (2 network ports: PORTS 3 on 2 x 2
# tiles, the card's 8 packets of buffer a VC, 64 routing entries).  Built
# for a short compile: the C++ at -O1 (-O0 for the code run once), which
# the lab test needs to pass its time limits; cached by content.
RTL_CARD      := $(RTL_BUILD)/loom-router-rtl.so
RTL_CARD_G    := -GPORTS=3 -GBUF_DEPTH=152 -GROWS=2 -GCOLS=2 -GRT_ENTRIES=64 -GSTART_VC1_BITS=64 \
                 -GMC_GROUPS=64
RTL_CARD_OPT  := OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1
rtl_comma     := ,
rtl_empty     :=
rtl_space     := $(rtl_empty) $(rtl_empty)
RTL_CARD_DESC := $(subst $(rtl_space),$(rtl_comma),$(strip $(patsubst -G%,%,$(RTL_CARD_G))))
RTL_CARD_O    := $(RTL_BUILD)/pic/router/params.o
RTL_CARD_CPP  := $(TOP)/tests/emu/sim/rtl_fabric.cpp
RTL_CARD_IN   := $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_GEN_OUT) $(RTL_CARD_CPP) \
                 $(TOP)/tests/emu/sim/rtl_fabric.h $(SRC_DIR)/card/rtl_plugin.h $(RTL_CARD_O) \
                 $(RTL_DIR)/rtl_regs.h $(wildcard $(SRC_DIR)/router/*.h) \
                 $(wildcard $(TOP)/include/loom_hw/*.h)
$(RTL_BUILD)/pic/%.o: $(SRC_DIR)/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(RTL_OBJ_CFLAGS) -fPIC -c $< -o $@
$(RTL_CARD): $(RTL_GEN_DIR)/.stamp $(RTL_CARD_O) FORCE
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) loom_router card-plugin -- -Wall -O3 \
		--x-assign fast --x-initial fast $(RTL_SPLIT) -I$(RTL_DIR) -I$(RTL_GEN_DIR) \
		-CFLAGS "-fPIC -fvisibility=hidden $(RTL_CXXFLAGS) -I$(TOP)/tests/emu/sim" \
		-CFLAGS "-DLOOM_RTL_PLUGIN='\"$(RTL_CARD_DESC)\"'" -LDFLAGS -shared \
		-MAKEFLAGS "$(RTL_CARD_OPT)" $(RTL_CARD_G) $(RTL_ROUTER_SV) $(RTL_CARD_CPP) \
		$(RTL_CARD_O) -- $(RTL_CARD_IN)
rtl-card: $(RTL_CARD)

# lint: every module as its own top at its defaults
RTL_MODULES := $(notdir $(RTL_SV:.sv=))
rtl-lint: $(RTL_GEN_DIR)/.stamp
	@for m in $(RTL_MODULES); do echo "lint $$m"; \
		verilator --lint-only -Wall -I$(RTL_DIR) -I$(RTL_GEN_DIR) --top-module $$m $(RTL_SV) \
		|| exit 1; done

# synthesis of the card router for Xilinx 7-series, its resource report:
# loom_router at its defaults (the card's router: the host port and 8
# network ports on a 3 x 3 tile grid, the card's 7 VCs, 16-byte flits,
# 24-flit input buffers, 1024 routing entries), or at SYNTH_PARAMS
# ("NAME=VALUE ...", the router's parameters, set by chparam) into a
# directory of its own.  One Yosys process elaborates the hierarchy
# (elab.il); xilinx_split.sh writes each module's parameter set as a unit
# of its own, its submodules black boxes, and units.mk; one Yosys process
# a unit synthesizes it (xilinx_unit.sh), serially, or SYNTH_JOBS at once;
# xilinx_report.sh sums the units, each times its instances.  The units'
# results are cached by content in SYNTH_CACHE (beside the Verilated
# builds), so that an interrupted campaign resumes where it stopped and
# a unit two campaigns share is synthesized once.  Every Yosys process
# runs niced under a limit of SYNTH_MEM_KB of virtual memory and fails
# with "out of memory" past it.
SYNTH_PARAMS ?=
SYNTH_MEM_KB ?= 6000000
SYNTH_JOBS   ?= 1
SYNTH_CACHE  ?= $(RTL_CACHE)/xilinx
RTL_SYNTH := $(RTL_BUILD)/synth
RTL_XSYN  := $(RTL_SYNTH)/router-xilinx$(if $(strip $(SYNTH_PARAMS)),-$(subst =,,$(subst $(rtl_space),-,$(strip $(SYNTH_PARAMS)))))
$(RTL_XSYN)/elab.il: $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_GEN_OUT) | $(RTL_GEN_DIR)/.stamp
	@mkdir -p $(RTL_XSYN)
	@echo "yosys: elaborate loom_router $(or $(strip $(SYNTH_PARAMS)),at its defaults) (log: $(RTL_XSYN)/elab.log)"
	@ulimit -v $(SYNTH_MEM_KB); /usr/bin/time -f '%U %S %M' -o $@.time nice -n 10 yosys -q -l $(RTL_XSYN)/elab.log \
		-p 'read_verilog -defer -sv -DSYNTHESIS -I$(RTL_DIR) -I$(RTL_GEN_DIR) $(RTL_ROUTER_SV)' \
		$(if $(strip $(SYNTH_PARAMS)),-p 'chparam $(foreach kv,$(SYNTH_PARAMS),-set $(subst =, ,$(kv))) loom_router') \
		-p 'hierarchy -top loom_router' -p 'write_rtlil $@.tmp' 2>$(RTL_XSYN)/elab.err \
		|| { grep -v '^Warning: ' $(RTL_XSYN)/elab.err | tail -n 5; \
		     echo "elaboration of loom_router failed: $(RTL_XSYN)/elab.log"; exit 1; }
	@mv $@.tmp $@
synth: $(RTL_XSYN)/elab.il
	@$(RTL_DIR)/xilinx_split.sh $< loom_router $(SYNTH_CACHE) $(RTL_XSYN) $(RTL_DIR)/xilinx_unit.sh
	@$(MAKE) --no-print-directory -j$(SYNTH_JOBS) -f $(RTL_XSYN)/units.mk \
		UNIT_RUN="$(RTL_DIR)/xilinx_unit.sh $(SYNTH_CACHE) $(SYNTH_MEM_KB)"
	@$(RTL_DIR)/xilinx_report.sh --units $(RTL_XSYN)/units.txt $(SYNTH_CACHE) loom_router \
		$(RTL_XSYN)/elab.il.time >$(RTL_XSYN)/resources.txt
	@cat $(RTL_XSYN)/resources.txt
	@echo "resource report: $(RTL_XSYN)/resources.txt"

# the units at the card router's sizes: a 24-flit input buffer of
# 16-byte flits and its sideband, a row-buffer credit counter, and the
# arbiters of every policy over 7 VCs and over 9 ports, and the link's
# CRC-32C at the card's 4 lanes of 4 bytes, go-back-N sender and
# receiver, credit return, lanes, frame serialiser, packet assembly,
# frame builder, replay buffer and delivery queue at the link's defaults,
# and the card's
# host port
RTL_UNIT_SYNTH := \
	"loom_flit_fifo DEPTH=24 WIDTH=164 HIST=1" \
	"loom_credit_counter DEPTH=16 RET_LAT=1" \
	"loom_arbiter KIND=0 N=7" "loom_arbiter KIND=1 N=7" "loom_arbiter KIND=2 N=7" \
	"loom_arbiter KIND=3 N=7" "loom_arbiter KIND=0 N=9" "loom_arbiter KIND=1 N=9" \
	"loom_crc32c LANES=4 LANE_BYTES=4" "loom_gbn_tx REPLAY_FRAMES=64 ACK_TIMEOUT=1024" \
	"loom_gbn_rx" "loom_link_credit VCS=8 BUF_DEPTH=152 FLIT_BYTES=16" \
	"loom_lanes LANES=4 LANE_THRESHOLD=16 LANE_WINDOW=1048576" \
	"loom_link_xmit_serialise LANES=4 LANE_BYTES=4" \
	"loom_link_xmit_assemble VCS=8 FLIT_BYTES=16 TX_QUEUE=3" \
	"loom_link_xmit_build VCS=8 ACK_TIMEOUT=1024 COALESCE_DELAY=32" \
	"loom_link_xmit_replay REPLAY_FRAMES=64" \
	"loom_link_recv_deliver FLIT_BYTES=16 RX_QUEUE=4 RX_FRAMES=64" \
	"loom_link_recv VCS=8 BUF_DEPTH=152 FLIT_BYTES=16" \
	"loom_host_port FLIT_BYTES=16 BUF_DEPTH=24 DEPTH=24"
synth-units: $(RTL_GEN_DIR)/.stamp
	@mkdir -p $(RTL_SYNTH)
	@rm -f $(RTL_SYNTH)/units-xilinx.txt
	@for u in $(RTL_UNIT_SYNTH); do set -- $$u; m=$$1; shift; \
		cp=""; for kv in "$$@"; do cp="$$cp chparam -set $${kv%%=*} $${kv#*=} $$m;"; done; \
		src=$(RTL_DIR)/$$m.sv; case $$m in loom_link_xmit_serialise) \
			src="$$src $(RTL_DIR)/loom_crc32c.sv";; esac; \
		nice -n 10 yosys -q -l $(RTL_SYNTH)/unit.log \
			-p "read_verilog -sv -I$(RTL_DIR) -I$(RTL_GEN_DIR) $$src; $$cp" \
			-p "synth_xilinx -top $$m -flatten" -p 'tee -q -o $(RTL_SYNTH)/unit.txt stat' \
			-p 'select -assert-none t:$$dlatch t:$$_DLATCH_* t:LDCE t:LDPE' || exit 1; \
		luts=$$(awk '/LUT[1-6] /{s+=$$2} END{print s+0}' $(RTL_SYNTH)/unit.txt); \
		ffs=$$(awk '/FD[RSCP]E? /{s+=$$2} END{print s+0}' $(RTL_SYNTH)/unit.txt); \
		rams=$$(awk '/RAM/{s+=$$2} END{print s+0}' $(RTL_SYNTH)/unit.txt); \
		printf '%-24s %-28s LUTs %5s  FFs %5s  RAM cells %3s\n' $$m "$$*" $$luts $$ffs $$rams \
			| tee -a $(RTL_SYNTH)/units-xilinx.txt; done
	@echo "no latches; per-unit report: $(RTL_SYNTH)/units-xilinx.txt"

# ---- the board top: iCE40-HX8K breakout board ----
RTL_BOARD_DIR := $(RTL_DIR)/board
RTL_BOARD_SV  := $(sort $(wildcard $(RTL_BOARD_DIR)/*.sv))
RTL_BOARD_TOP := loom_board_hx8k
RTL_BOARD_PCF := $(RTL_BOARD_DIR)/hx8k-breakout.pcf
RTL_BOARD_TEST := $(RTL_BUILD)/board_test
RTL_BOARD_IN  := $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_BOARD_SV) $(RTL_GEN_OUT) \
                 $(RTL_BOARD_DIR)/board_test.cpp $(RTL_DIR)/rtl_regs.h $(wildcard $(TOP)/include/loom_hw/*.h)
# the pin-level test: the UART at 4 clock cycles a bit.  It runs for well
# under a second, so it is built for a short compile (no trace, -O1), not for
# speed: a cold build is part of every clean 'make check'.
RTL_BOARD_VFLAGS := -Wall --x-assign fast --x-initial fast $(RTL_SPLIT) -I$(RTL_DIR) -I$(RTL_GEN_DIR) \
                    -CFLAGS "-O1 $(RTL_CXXFLAGS)"
$(RTL_BOARD_TEST): $(RTL_GEN_DIR)/.stamp FORCE
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) $(RTL_BOARD_TOP) test -- $(RTL_BOARD_VFLAGS) \
		-GCLKS_PER_BIT=4 -GPORTS=5 $(RTL_ROUTER_SV) $(RTL_BOARD_SV) $(RTL_BOARD_DIR)/board_test.cpp \
		-- $(RTL_BOARD_IN)
rtl-board: $(RTL_BOARD_TEST)

# synthesis, place and route at the board top's default parameters, or
# with BOARD_PORTS=N at N ports (host + N - 1 network ports) into a
# directory of its own
BOARD_PORTS ?=
RTL_BIT := $(RTL_BUILD)/ice40$(if $(BOARD_PORTS),-ports$(BOARD_PORTS))
RTL_BOARD_CHPARAM := $(if $(BOARD_PORTS),chparam -set PORTS $(BOARD_PORTS) $(RTL_BOARD_TOP))
# the pins of the flow: with one network port its one-bit vectors lose
# their index ([0:0] vectors are plain names to nextpnr)
RTL_BIT_PCF := $(if $(filter 2,$(BOARD_PORTS)),$(RTL_BIT)/hx8k-breakout.pcf,$(RTL_BOARD_PCF))
$(RTL_BIT)/hx8k-breakout.pcf: $(RTL_BOARD_PCF)
	@mkdir -p $(dir $@)
	sed -E 's/(link_(tx|rx)_frame)\[0\]/\1/' $< >$@
BOARD_FREQ ?= 50
BOARD_CLK_MHZ := 12
# The sources are read with -defer: no module is elaborated until
# synth_ice40's hierarchy does it from the top, with the board's
# parameters (chparam sets the deferred top's), so loom_router is never
# elaborated at its defaults (the card's router: minutes of CPU, GB).
# synth_ice40 of top $(1) by its labels, without the coarse step's
# resource sharing (share): with Yosys 0.23 that SAT pass grows past 13 GB
# on the router and does not end; without it the board top synthesizes in
# about 6 minutes and 2 GB.  Arithmetic and comparisons ($alu cells) of up to
# ICE40_LUT_ALU bits are mapped to LUTs rather than SB_CARRY chains (t:*alu:
# the pattern has no dollar sign, so the script may stand in single or double
# quotes): a short chain takes logic cells to enter and leave it and cells
# of its own for carries no LUT shares.  $(2): options of the last part
# (-json FILE).
ICE40_LUT_ALU := 16
ice40_synth = synth_ice40 -top $(1) -run begin:coarse; opt_expr; opt_clean; check; \
	opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; opt_clean; \
	techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; memory_dff; alumacc; opt; \
	memory -nomap; opt_clean; \
	techmap -map +/techmap.v t:*alu r:Y_WIDTH<=$(ICE40_LUT_ALU) %i; opt_clean; \
	synth_ice40 -top $(1) -run map_ram: $(2)
bitstream: $(RTL_BIT)/$(RTL_BOARD_TOP).bin
$(RTL_BIT)/$(RTL_BOARD_TOP).json: $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_BOARD_SV) $(RTL_GEN_DIR)/.stamp
	@mkdir -p $(RTL_BIT)
	@echo "yosys synth_ice40 $(RTL_BOARD_TOP) (log: $(RTL_BIT)/yosys.log)"
	nice -n 10 yosys -q -l $(RTL_BIT)/yosys.log \
		-p 'read_verilog -defer -sv -DSYNTHESIS -I$(RTL_DIR) -I$(RTL_GEN_DIR) $(RTL_ROUTER_SV) $(RTL_BOARD_SV)' \
		$(if $(RTL_BOARD_CHPARAM),-p '$(RTL_BOARD_CHPARAM)') \
		-p '$(call ice40_synth,$(RTL_BOARD_TOP),-json $@.tmp)' \
		-p 'tee -q -o $(RTL_BIT)/yosys-stat.txt stat' \
		-p 'select -assert-none t:$$dlatch t:$$_DLATCH_*'
	@mv $@.tmp $@
# packing first (seconds): a design that does not fit stops here with its
# utilisation, not after minutes of placement
$(RTL_BIT)/$(RTL_BOARD_TOP).asc: $(RTL_BIT)/$(RTL_BOARD_TOP).json $(RTL_BIT_PCF)
	@echo "nextpnr-ice40 --pack-only (log: $(RTL_BIT)/nextpnr-pack.log)"
	nice -n 10 nextpnr-ice40 -q --hx8k --package ct256 --pcf $(RTL_BIT_PCF) \
		--json $< --pack-only -l $(RTL_BIT)/nextpnr-pack.log
	@$(RTL_BOARD_DIR)/bitstream_fit.sh $(RTL_BIT)/nextpnr-pack.log
	@echo "nextpnr-ice40 --hx8k --package ct256, aiming at $(BOARD_FREQ) MHz (log: $(RTL_BIT)/nextpnr.log)"
	nice -n 10 nextpnr-ice40 -q --hx8k --package ct256 --pcf $(RTL_BIT_PCF) \
		--json $< --asc $@.tmp --freq $(BOARD_FREQ) --timing-allow-fail \
		--report $(RTL_BIT)/nextpnr-report.json -l $(RTL_BIT)/nextpnr.log
	@mv $@.tmp $@
# icetime's HX8K database: Debian's fpga-icestorm-chipdb, or made once by
# icebox_chipdb (minutes of CPU) where that package is not installed
ICETIME_CHIPDB := $(firstword $(wildcard /usr/share/icestorm/chipdb-8k.txt \
                    /usr/share/fpga-icestorm/chipdb/chipdb-8k.txt) $(RTL_BUILD)/chipdb-8k.txt)
$(RTL_BUILD)/chipdb-8k.txt:
	@mkdir -p $(dir $@)
	nice -n 10 icebox_chipdb -8 >$@.tmp
	@mv $@.tmp $@
$(RTL_BIT)/$(RTL_BOARD_TOP).bin: $(RTL_BIT)/$(RTL_BOARD_TOP).asc $(ICETIME_CHIPDB)
	icetime -d hx8k -P ct256 -C $(ICETIME_CHIPDB) -p $(RTL_BIT_PCF) -t -r $(RTL_BIT)/icetime.txt \
		$< >/dev/null
	icepack $< $@.tmp
	@mv $@.tmp $@
	@$(RTL_BOARD_DIR)/bitstream_report.sh $(RTL_BIT) $(BOARD_FREQ) $(BOARD_CLK_MHZ)

# ---- post-synthesis check: the router's iCE40 netlist through the harness ----
# synth_ice40 of loom_router at the bitstream's configuration, written as
# a netlist of iCE40 cells, rewritten for Verilator (below), Verilated
# with Yosys's models of those cells and stepped against the C model by
# equiv_router.cpp; the synthesis, the rewrite and the Verilated build are
# each cached by content
# The bitstream's parameters but PORTS: RTL_NL_PORTS (host + 1 network port
# by default; at 5 the synthesis had not ended after an hour)
RTL_NL_PORTS  ?= 2
RTL_NL_G      := $(patsubst -GPORTS=%,-GPORTS=$(RTL_NL_PORTS),$(RTL_EQ_G_ice40))
RTL_NETLIST   := $(RTL_BUILD)/loom_router-ice40.v
RTL_NL_PARAMS := $(patsubst -G%,-set %,$(subst =, ,$(RTL_NL_G)))
$(RTL_NETLIST): $(RTL_GEN_DIR)/.stamp FORCE
	@$(RTL_DIR)/harness/ysynth.sh $@ $(RTL_CACHE) router-ice40-netlist \
		"read_verilog -sv -DSYNTHESIS -I$(RTL_DIR) -I$(RTL_GEN_DIR) $(RTL_ROUTER_SV); \
		 chparam $(RTL_NL_PARAMS) loom_router; $(call ice40_synth,loom_router,); \
		 select -assert-none t:\$$dlatch t:\$$_DLATCH_*; tee -q -o stat.txt stat; \
		 write_verilog -noattr $(notdir $@)" -- $(RTL_ROUTER_SV) $(RTL_VH) $(RTL_GEN_OUT)
# The netlist in the files below, by the generic rules of "iCE40 netlists
# for Verilator" after the unit harness's
NL_TOP_loom_router-ice40 := loom_router
RTL_NL_CELLS  := $(RTL_BUILD)/loom_router-ice40-cells.v
RTL_NL_WRAP   := $(RTL_BUILD)/loom_router-ice40-wrap.v
# Built for a short compile: no trace (the harness then writes no VCD; the
# RTL's build of the same configuration does), the C++ at -O1 and the code
# run once at -O0.  Verilator's ordering warnings stay on: a net it cannot
# order shows in the build log.
RTL_NL_VFLAGS := +define+NO_ICE40_DEFAULT_ASSIGNMENTS -O3 --x-assign fast --x-initial fast \
                 -Wno-fatal -Wno-lint -Wno-style -Wno-TIMESCALEMOD \
                 -CFLAGS "$(RTL_CXXFLAGS)" -MAKEFLAGS "$(RTL_CARD_OPT)"
RTL_NL_HARNESS := $(RTL_BUILD)/equiv_router-ice40-netlist
RTL_NL_SRC     := $(RTL_NL_WRAP) $(RTL_NL_CELLS) $(YOSYS_DATDIR)/ice40/cells_sim.v
$(RTL_NL_HARNESS): $(RTL_NL_CELLS) $(RTL_NL_WRAP) $(RTL_ROUTER_O) FORCE
	@$(RTL_DIR)/harness/vbuild.sh $@ $(RTL_CACHE) loom_router ice40-netlist -- $(RTL_NL_VFLAGS) \
		$(RTL_NL_SRC) $(RTL_DIR)/harness/equiv_router.cpp $(RTL_ROUTER_O) -- $(RTL_NL_SRC) \
		$(RTL_DIR)/harness/equiv_router.cpp $(RTL_DIR)/harness/equiv_common.h $(RTL_ROUTER_O)
# the check: RTL_NL_SEEDS seeds of RTL_NL_CYCLES cycles each, equal or
# stopped at the first difference
RTL_NL_SEEDS  ?= 1 2
RTL_NL_CYCLES ?= 10000
rtl-postsynth: $(RTL_NL_HARNESS)
	@for s in $(RTL_NL_SEEDS); do \
		$(RTL_NL_HARNESS) --seed $$s --cycles $(RTL_NL_CYCLES) || exit 1; done

# ---- iCE40 netlists for Verilator ----
# $(RTL_BUILD)/NAME.v is a netlist Yosys wrote of module NL_TOP_NAME.
# Verilator orders logic by variable, not by bit, and Yosys writes a net,
# a port too, as one vector whose bits LUTs drive one by one: an
# assignment between bits of the same vector (the router's info_rdata[29:6]
# from info_rdata[30]) is evaluated before the LUT that drives its source
# bit.  So NAME-cells.v has every net and port split into single bits
# (splitnets -ports), undriven bits and undefined parameter bits tied to 0
# as the bitstream's flow ties them (setundef), the module renamed
# NL_TOP_NAME_cells; NAME-wrap.v (nl_wrap.sh) is NL_TOP_NAME with the
# original ports as vectors around it.  Cached by content like the
# synthesis.
$(RTL_BUILD)/%-cells.v: $(RTL_BUILD)/%.v FORCE
	@$(RTL_DIR)/harness/ysynth.sh $@ $(RTL_CACHE) $*-cells \
		"read_verilog $<; read_verilog -lib +/ice40/cells_sim.v; \
		 hierarchy -top $(NL_TOP_$*); splitnets -ports; setundef -undriven -zero -params; \
		 opt_clean; rename $(NL_TOP_$*) $(NL_TOP_$*)_cells; \
		 write_verilog -noattr $(notdir $@)" -- $<
$(RTL_BUILD)/%-wrap.v: $(RTL_BUILD)/%.v $(RTL_DIR)/harness/nl_wrap.sh
	$(RTL_DIR)/harness/nl_wrap.sh $< $(NL_TOP_$*) $(NL_TOP_$*)_cells >$@.tmp
	@mv $@.tmp $@

# the unit harness's credit counter B (harness/loom_equiv_units.sv:
# CB_DEPTH 10, CB_RET_LAT 3), synthesized as the router is, renamed to sit
# beside the RTL's: about a second of Yosys
NL_TOP_loom_credit_counter-ice40 := loom_credit_counter_ice40
$(RTL_UNIT_NL): FORCE
	@$(RTL_DIR)/harness/ysynth.sh $@ $(RTL_CACHE) credit-counter-ice40-netlist \
		"read_verilog -sv -DSYNTHESIS $(RTL_DIR)/loom_credit_counter.sv; \
		 chparam -set DEPTH 10 -set RET_LAT 3 loom_credit_counter; \
		 $(call ice40_synth,loom_credit_counter,); \
		 rename loom_credit_counter loom_credit_counter_ice40; \
		 write_verilog -noattr $(notdir $@)" -- $(RTL_DIR)/loom_credit_counter.sv
.SECONDARY: $(RTL_UNIT_NL) $(RTL_NETLIST)

FORCE:
