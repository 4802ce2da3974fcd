#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs sparse and leaves a mark, so 'make check-sparse' can tell that sparse
# really checked the sources (kbuild prints nothing in silent mode).
touch "${LOOM_SPARSE_MARK:?}"
exec sparse "$@"
