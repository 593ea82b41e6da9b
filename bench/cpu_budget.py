#!/usr/bin/env python3
"""Where the server's CPU went, by part of the stack, from a `perf record --call-graph dwarf` of it.

Usage: bench/cpu_budget.py PERF_DATA [MS_PER_REQUEST]

Each sample goes to the innermost frame of its stack that names a part: a function of the SQLite
library, of swift-mustache, GRDB, libmicrohttpd, the HTTPServer module, Foundation, Tagarela's template
renderer (`CompiledTemplates`, which renders swift-mustache's parse), or Tagarela's other code. Frames that name none (the Swift runtime's retain and release, malloc, the kernel, a generic of
the standard library) count for the part that called them: the kernel's copy of a database page is
SQLite's, a retain inside a template lookup is rendering's. A function is known by the module of its
mangled name (`$s8Mustache…` is swift-mustache's), not by the types it mentions: a Tagarela handler
that takes a GRDB `Database` is Tagarela's.

Prints one line per part: its share of the samples and, given the CPU time a request (bench/mixed
prints it), its share of that.
"""

import collections
import subprocess
import sys

# (part, how a frame of it is known): a prefix of the mangled Swift name, or a piece of the library's path.
PARTS = [
    ("SQLite", ("dso", "libsqlite3")),
    ("templates (swift-mustache)", ("symbol", "$s8Mustache")),
    ("GRDB", ("symbol", "$s4GRDB")),
    ("HTTP (libmicrohttpd)", ("dso", "libmicrohttpd")),
    ("HTTP (HTTPServer module)", ("symbol", "$s10HTTPServer")),
    ("Foundation and ICU", ("dso", "Foundation")),
    # Tagarela's own renderer of swift-mustache's parse (Platform/CompiledTemplates.swift), before the rest of Tagarela.
    ("templates (CompiledTemplates)", ("symbol", "$s8Tagarela17CompiledTemplates")),
    ("Tagarela (handlers, queries, page models)", ("symbol", "$s8Tagarela")),
]


def frames(sample):
    """(symbol, library path) of each frame, innermost first. perf script -F ip,sym,dso prints
    `ADDRESS SYMBOL (LIBRARY)` per line; the symbol may hold spaces, the library is the last group."""
    for line in sample.splitlines():
        line = line.strip()
        if not line:
            continue
        _, _, rest = line.partition(" ")
        symbol, _, dso = rest.rpartition(" (")
        yield symbol.strip(), dso.rstrip(")")


def part_of(sample):
    for symbol, dso in frames(sample):
        for part, (kind, mark) in PARTS:
            if (kind == "dso" and mark in dso) or (kind == "symbol" and symbol.startswith(mark)):
                return part
    return "elsewhere (no named frame: threads' start, timers)"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    per_request = float(sys.argv[2]) if len(sys.argv) == 3 else None
    script = subprocess.run(["perf", "script", "-i", sys.argv[1], "-F", "ip,sym,dso"],
                            capture_output=True, text=True, check=True).stdout
    counts = collections.Counter(part_of(sample) for sample in script.split("\n\n") if sample.strip())
    total = sum(counts.values())
    if total == 0:
        sys.exit("cpu_budget.py: no samples in " + sys.argv[1])
    for part, n in counts.most_common():
        share = n / total
        cost = f"  {share * per_request:5.2f} ms a request" if per_request is not None else ""
        print(f"  {share * 100:5.1f} %{cost}  {part}")
    print(f"  ({total} samples)")


if __name__ == "__main__":
    main()
