# SPDX-License-Identifier: GPL-2.0
# Sphinx settings of the loom documentation ("make docs"; warnings are errors).
import os

project = "loom"
author = "the loom developers"
copyright = "the loom developers"
with open(os.path.join(os.path.dirname(__file__), "..", "VERSION")) as f:
    release = version = f.read().strip()
master_doc = "index"
exclude_patterns = ["Makefile"]
html_theme = "alabaster"
html_title = "loom " + release
# the manual pages' own header fields are not Sphinx metadata
html_show_sourcelink = False
