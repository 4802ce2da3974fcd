# Shared build settings for every userspace part of loom.
# Included by the sub-Makefiles; the top-level Makefile passes BUILD.
TOP      := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD    ?= $(TOP)/build
CC       ?= cc
CSTD     := -std=c11 -D_GNU_SOURCE
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
# the release of loom, one number for the library, the tools (-V) and the
# packages; every rule compiling a -V (tools/common/cli.h) depends on VERSION
LOOM_VERSION := $(shell cat $(TOP)/VERSION)
ALL_CFLAGS = $(CSTD) $(WARN) $(CPPFLAGS) $(CFLAGS) -I$(TOP)/include -I$(TOP)/include/uapi \
	     -I$(TOP)/lib/include -DLOOM_VERSION=\"$(LOOM_VERSION)\"
# Programs linked against libloom find it in the tree (build/lib) without
# installing it; packages set RPATH= (the library is in the system's path).
RPATH    ?= -Wl,-rpath,'$$ORIGIN/../lib'
# install locations (make install; the Debian packages pass their own)
PREFIX   ?= /usr/local
LIBDIR   ?= $(PREFIX)/lib
# Unit tests and native emulator tests run under these sanitizers in 'make check'.
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
