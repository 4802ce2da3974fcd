# SPDX-License-Identifier: GPL-2.0
# loom: top-level build.
#   make          build everything (module, library, card emulator, tools)
#   make check    run every test (unit, native emulator fabrics, VM lab); TAP
#   make fuzz     the long run of the interface fuzzer (100000 calls); TAP
#   make demo     the main job: a multi-host VM lab moves data and verifies it
#   make install  library, header, pkg-config file, tools, module, udev rules
#   make clean
# As root, 'check' and 'demo' first install missing Debian packages
# (tools/deps/install-deps); otherwise they say which are missing.
TOP   := $(CURDIR)
BUILD ?= $(TOP)/build
PREFIX ?= /usr/local
export BUILD TOP

USER_PARTS := lib fpga_bitstreams tests/vm/rma tests/vm/uring tools/loom-xfer tools/bench tools/loom-lab tools/loomctl tools/loom-fm

all: userspace module

deps:
	@$(TOP)/tools/deps/install-deps

userspace:
	$(MAKE) -C lib
	$(MAKE) -C fpga_bitstreams
	$(MAKE) -C tools/loom-xfer
	$(MAKE) -C tools/bench
	$(MAKE) -C tools/loom-lab
	$(MAKE) -C tools/loomctl
	$(MAKE) -C tools/loom-fm

module:
	$(MAKE) -C kmod

# test programs (unit tests and native fabric tests under ASan/UBSan)
tests: userspace module
	$(MAKE) -C lib tests
	$(MAKE) -C fpga_bitstreams tests
	$(MAKE) -C kmod tests
	$(MAKE) -C tests/vm/uring
	$(MAKE) -C tests/vm/rma

check: deps
	@$(MAKE) --no-print-directory all tests
	@$(TOP)/tests/run-tests

demo: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tools/demo/loom-demo

# every user interface of loom.ko fuzzed at once, root and unprivileged
# (Documentation/testing.rst); IFACE_FUZZ_CALLS, IFACE_FUZZ_SEED tune it
fuzz: deps
	@$(MAKE) --no-print-directory all tests
	@IFACE_FUZZ_CALLS=$${IFACE_FUZZ_CALLS:-100000} \
		IFACE_FUZZ_SECONDS=$${IFACE_FUZZ_SECONDS:-3600} $(TOP)/tests/vm/kmod/test_iface_fuzz.sh

install: all
	$(MAKE) -C lib install PREFIX=$(PREFIX)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD)/bin/loom-xfer $(BUILD)/bin/loom-card $(BUILD)/bin/loom-lab \
		$(BUILD)/bin/loom-lab-agent $(BUILD)/bin/loomctl \
		$(BUILD)/bin/loom_put_lat $(BUILD)/bin/loom_put_bw $(BUILD)/bin/loom_get_lat \
		$(BUILD)/bin/loom_atomic_lat $(BUILD)/bin/loom_barrier_lat \
		$(DESTDIR)$(PREFIX)/bin/
	$(MAKE) -C tools/loom-fm install PREFIX=$(PREFIX)
	$(MAKE) -C kmod install
	install -D -m 0644 udev/60-loom.rules $(DESTDIR)/etc/udev/rules.d/60-loom.rules
	install -D -m 0644 tools/loomctl/loomctl.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/loomctl
	getent group loom >/dev/null || groupadd --system loom

clean:
	for d in $(USER_PARTS) kmod; do $(MAKE) -C $$d clean; done
	rm -rf $(BUILD)

.PHONY: all deps userspace module tests check demo fuzz install clean
