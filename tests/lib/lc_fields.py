#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a loomctl command names its fields alike in text and JSON.

    lc_fields.py TEXT JSON [MANPAGE]

TEXT is what the command printed without -j, JSON what it printed with -j
(one document, or one per line as monitor prints).  Every JSON key that
holds a value (a number, a string, true, or a list of those) must appear as
a word of the text; keys holding null or false are left out of the text by
design, keys holding objects or lists of objects are containers.  With
MANPAGE, every such key must also appear in it (as a word).  Prints the keys
that are missing, with both outputs, and exits 1; exits 0 when none are.
"""
import json
import re
import sys


def fields(v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, dict):
                fields(x, out)
            elif isinstance(x, list) and any(isinstance(e, (dict, list)) for e in x):
                for e in x:
                    fields(e, out)
            elif x is None or x is False:
                continue
            else:
                out.add(k)
    elif isinstance(v, list):
        for e in v:
            fields(e, out)


def main():
    text = open(sys.argv[1]).read()
    raw = open(sys.argv[2]).read()
    try:
        docs = [json.loads(raw)]
    except ValueError:
        docs = [json.loads(line) for line in raw.splitlines() if line.strip()]
    keys = set()
    for d in docs:
        fields(d, keys)
    words = set(text.split())
    bad = 0
    missing = sorted(k for k in keys if k not in words)
    if missing:
        print("JSON keys missing from the text: %s" % " ".join(missing))
        bad = 1
    if len(sys.argv) > 3:
        man = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", open(sys.argv[3]).read()))
        undoc = sorted(k for k in keys if k not in man)
        if undoc:
            print("JSON keys the manual does not name: %s" % " ".join(undoc))
            bad = 1
    if not keys:
        print("no JSON fields at all")
        bad = 1
    if bad:
        print("--- text:\n%s--- JSON:\n%s" % (text, raw))
    return bad


sys.exit(main())
