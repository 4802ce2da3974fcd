# SPDX-License-Identifier: GPL-2.0
# loom: top-level build.
#   make          build everything (module, library, card emulator, tools,
#                 manual pages)
#   make check    run every test (unit, native emulator fabrics, VM lab); TAP
#   make check-debug  the VM suite and the fuzzers on a debug guest kernel
#                 (KASAN, lockdep, kmemleak, ...; hours; not part of check)
#   make fuzz     the long run of the interface fuzzer (100000 calls); TAP
#   make check-hostile  loom.ko against a hostile card for several minutes
#   make check-cluster  the lab campaigns too long for check: 16 hosts, the 4-host cluster, MPI on loom
#   make check-rtl  only the router RTL in the VM lab (part of check): cards
#                 that run the Verilated router (loom-card --router rtl) move
#                 data and complete barriers
#   make demo     the main job: a multi-host VM lab moves data and verifies it
#   make bench    every benchmark on a 2-host lab with the floors measured in
#                 the same run: tables, goal ratios, CSV, JSON and plots into
#                 build/bench (BENCH_ARGS go to tools/bench/loom-bench)
#   make sim-bench  loom-sim's speed and memory figures (loom-sim --bench)
#   make validate   the seeds' published figures rerun by loom-sim, a line per
#                 table row: the paper's value, loom's, the difference; fails
#                 where a row does (loom-sim --validate; Documentation/sim/validation.rst)
#   make docs     the HTML documentation (Sphinx) into build/html
#   make install  library, header, pkg-config file, tools, manual pages,
#                 module, udev rules
#   make deb      Debian packages (loom-dkms, libloom1, libloom-dev,
#                 loom-tools) into build/deb
#   make clean
# As root, 'check' and 'demo' first install missing Debian packages
# (tools/deps/install-deps); otherwise they say which are missing.
TOP   := $(CURDIR)
LOOM_VERSION := $(shell cat $(CURDIR)/VERSION)
BUILD ?= $(TOP)/build
PREFIX ?= /usr/local
# parallel jobs for the builds that check, demo and deb run (one per CPU)
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
export BUILD TOP

USER_PARTS := lib fpga_bitstreams tests/vm/rma tests/vm/uring tools/loom-xfer tools/bench tools/loom-lab tools/loomctl tools/loom-fm tools/loom-sim

all: userspace module man

deps:
	@$(TOP)/tools/deps/install-deps

userspace:
	$(MAKE) -C lib
	$(MAKE) -C lib/fabric
	$(MAKE) -C fpga_bitstreams
	$(MAKE) -C tools/loom-xfer
	$(MAKE) -C tools/bench
	$(MAKE) -C tools/loom-lab
	$(MAKE) -C tools/loomctl
	$(MAKE) -C tools/loom-fm
	$(MAKE) -C tools/loom-sim

module:
	$(MAKE) -C kmod

man:
	$(MAKE) -C Documentation man

docs:
	$(MAKE) -C Documentation html

# test programs (unit tests and native fabric tests under ASan/UBSan)
tests: userspace module vm-tests
	$(MAKE) -C lib tests
	$(MAKE) -C lib/fabric tests
	$(MAKE) -C tools/loomctl tests
	$(MAKE) -C fpga_bitstreams tests
	$(MAKE) -C tools/loom-sim tests

# the guest-side programs of the VM tests alone
vm-tests: userspace module
	$(MAKE) -C kmod tests
	$(MAKE) -C tests/vm/uring
	$(MAKE) -C tests/vm/rma
	$(MAKE) -C tests/vm/ofi

# (the module is built with W=1 and sparse, which unit/test_kmod_style.sh
# reads; the Debian packages, which only tests/vm/test_deb.sh installs, are
# built by the vm level's preparation while the unit, emu and lab levels
# run: the old ones are removed here so that it builds this tree's)
check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all tests LOOM_KMOD_CHECKED=1
	@rm -rf $(DEB_DIR)
	@$(TOP)/tests/run-tests

# The debug-kernel campaign: builds its own kernel (cached) and its own copy
# of the tree (build/check-debug); CHECK_DEBUG_ARGS go to tests/debug/check-debug.
check-debug:
	@$(TOP)/tests/debug/check-debug $(CHECK_DEBUG_ARGS)

# Longer than the round of test_hostile.sh in 'check': more seeds, longer
# rounds (HOSTILE_SEEDS, HOSTILE_SECONDS override them).
check-hostile: deps
	@$(MAKE) --no-print-directory all tests
	@HOSTILE_SEEDS="$${HOSTILE_SEEDS:-11 12 13 14 15 16 17 18}" \
	 HOSTILE_SECONDS="$${HOSTILE_SECONDS:-30}" $(TOP)/tests/vm/kmod/test_hostile.sh

check-rtl: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@$(MAKE) --no-print-directory -C fpga_bitstreams rtl-card
	@$(TOP)/tests/vm/test_rtl_lab.sh

check-cluster: deps
	@$(MAKE) --no-print-directory all
	@LOOM_TEST_TIMEOUT=$${LOOM_TEST_TIMEOUT:-2400} $(TOP)/tests/run-tests cluster

demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@$(TOP)/tools/demo/loom-demo

bench: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -C fpga_bitstreams bench
	@$(TOP)/tools/bench/loom-bench --out $(BUILD)/bench $(BENCH_ARGS)

# every user interface of loom.ko fuzzed at once, root and unprivileged
# (Documentation/testing.rst); IFACE_FUZZ_CALLS, IFACE_FUZZ_SEED tune it
fuzz: deps
	@$(MAKE) --no-print-directory all tests
	@IFACE_FUZZ_CALLS=$${IFACE_FUZZ_CALLS:-100000} IFACE_FUZZ_SEED=$${IFACE_FUZZ_SEED:-$$(date +%Y%m%d)} \
		IFACE_FUZZ_RINGS=$${IFACE_FUZZ_RINGS:-psd} \
		IFACE_FUZZ_SECONDS=$${IFACE_FUZZ_SECONDS:-3600} $(TOP)/tests/vm/kmod/test_iface_fuzz.sh

sim-bench: userspace
	$(MAKE) -C tools/loom-sim bench

validate:
	@$(MAKE) --no-print-directory -C tools/loom-sim validate

install: all
	$(MAKE) -C lib install PREFIX=$(PREFIX)
	$(MAKE) -C lib/fabric install PREFIX=$(PREFIX) PROV_RPATH=
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD)/bin/loom-xfer $(BUILD)/bin/loom-card $(BUILD)/bin/loom-lab \
		$(BUILD)/bin/loom-lab-agent \
		$(BUILD)/bin/loom_put_lat $(BUILD)/bin/loom_put_bw $(BUILD)/bin/loom_get_lat \
		$(BUILD)/bin/loom_atomic_lat $(BUILD)/bin/loom_barrier_lat $(BUILD)/bin/loom_cable_bw \
		$(DESTDIR)$(PREFIX)/bin/
	$(MAKE) -C tools/loomctl install PREFIX=$(PREFIX)
	$(MAKE) -C tools/loom-fm install PREFIX=$(PREFIX)
	$(MAKE) -C tools/loom-sim install PREFIX=$(PREFIX)
	$(MAKE) -C Documentation install PREFIX=$(PREFIX)
	$(MAKE) -C kmod install
	install -D -m 0644 udev/60-loom.rules $(DESTDIR)/etc/udev/rules.d/60-loom.rules
	getent group loom >/dev/null || groupadd --system loom

# Debian packages from a copy of the tree (its debian/ is tools/deb/debian),
# checked with lintian; the .debs and .changes land in $(BUILD)/deb.  The
# copy leaves out what Kbuild writes into kmod/, so that it can run while
# the module builds (make -j).
DEB_DIR := $(BUILD)/deb
DEB_SRC := $(DEB_DIR)/loom-$(LOOM_VERSION)

deb:
	@$(TOP)/tools/deps/install-deps --deb
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_SRC)
	tar -C $(TOP) --exclude=./build --exclude=./.git --exclude=./.lab-cache --exclude=./debian \
		--exclude='./kmod/.*' --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude=Module.symvers --exclude=modules.order \
		-cf - . | tar -C $(DEB_SRC) -xf -
	cp -r $(TOP)/tools/deb/debian $(DEB_SRC)/debian
	sed -i -e 's/@VERSION@/$(LOOM_VERSION)/' \
		-e "s/@DATE@/$$(date -R -d @$${SOURCE_DATE_EPOCH:-$$(stat -c %Y $(TOP)/VERSION)})/" \
		$(DEB_SRC)/debian/changelog
	cd $(DEB_SRC) && dpkg-buildpackage -b -us -uc -j$(JOBS) > $(DEB_DIR)/build.log 2>&1 || \
		{ tail -n 40 $(DEB_DIR)/build.log; echo "make deb: dpkg-buildpackage failed (log: $(DEB_DIR)/build.log)" >&2; exit 1; }
	lintian --fail-on error,warning $(DEB_DIR)/*.changes
	@ls $(DEB_DIR)/*.deb

clean:
	for d in $(USER_PARTS) kmod Documentation; do $(MAKE) -C $$d clean; done
	rm -rf $(BUILD)

.PHONY: all deps userspace module man docs tests vm-tests check check-debug check-hostile check-cluster check-rtl demo bench fuzz sim-bench validate install deb clean
