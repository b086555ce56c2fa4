#!/usr/bin/env python3
"""Groups the allocations that Scripts/alloc-trace.c recorded, per request.

Usage: alloc-trace.py TRACE REQUESTS

Each allocation is charged to the innermost function of the package on its stack (a module
NetworkLayer or NetworkLayerCurl symbol), or, when there is none, to the function that
allocated. A second list adds what allocated directly, for the twenty largest groups.
"""
import collections
import re
import subprocess
import sys

trace_path, requests = sys.argv[1], float(sys.argv[2])
maps, events = [], []
for line in open(trace_path, errors="replace"):
    if line.startswith("MAP "):
        fields = line.split()
        low, high = (int(x, 16) for x in fields[1].split("-"))
        maps.append((low, high, int(fields[3], 16), fields[-1]))
    elif line.startswith("E "):
        events.append([])
    elif line.strip() and events:
        events[-1].append(int(line, 16))


def locate(address):
    for low, high, offset, path in maps:
        if low <= address < high:
            return path, address - low + offset
    return None, address


# Symbolize every address once, per binary, with llvm-symbolizer.
located = {a: locate(a) for frames in events for a in frames}
by_binary = collections.defaultdict(set)
for path, offset in located.values():
    if path:
        by_binary[path].add(offset)
linkage = {}
for path, offsets in by_binary.items():
    offsets = sorted(offsets)
    result = subprocess.run(
        ["llvm-symbolizer", "--obj=" + path, "--functions=linkage", "--no-inlines"],
        input="\n".join(hex(o - 1) for o in offsets), capture_output=True, text=True).stdout
    for offset, block in zip(offsets, result.strip().split("\n\n")):
        linkage[(path, offset)] = block.split("\n")[0]
names = sorted(set(linkage.values()))


def demangle(flags):
    output = subprocess.run(["swift-demangle", "--compact"] + flags, input="\n".join(names),
                            capture_output=True, text=True).stdout.split("\n")
    return dict(zip(names, output))


short, full = demangle(["--simplified"]), demangle([])
ours = re.compile(r"^(\S+ )?((closure|implicit closure) #\d+ .*in |partial apply .*for |specialized |"
                  r"generic specialization .*of |merged |outlined .*of )*(static )?(NetworkLayer|NetworkLayerCurl)\.")
allocator = re.compile(r"swift_allocObject|swift_slowAlloc|swift_allocBox|_allocateUninitialized|"
                       r"__allocating_init|swift_allocEmptyBox|_allocateStringStorage")


def describe(address):
    path, offset = located[address]
    name = linkage.get((path, offset), "??") if path else "??"
    binary = path.rsplit("/", 1)[-1] if path else "?"
    return short.get(name, name), binary, bool(ours.match(full.get(name, "")))


groups, details = collections.Counter(), collections.Counter()
for frames in events:
    described = [describe(a) for a in frames]
    direct = next((f"{n} [{b}]" for n, b, _ in described if not allocator.search(n)), "?")
    owner = next((n for n, _, is_ours in described if is_ours), None)
    group = owner if owner else "(no frame of ours) " + direct
    groups[group] += 1
    details[(group, direct)] += 1

print(f"{len(events)} allocations recorded, {len(events) / requests:.1f} per request\n")
print("per request  innermost function of the package")
for group, n in groups.most_common(40):
    print(f"{n / requests:10.2f}  {group[:150]}")
print("\nper request  that function <- what allocated")
top = {g for g, _ in groups.most_common(20)}
for (group, direct), n in details.most_common():
    if group in top and n / requests >= 0.5:
        print(f"{n / requests:10.2f}  {group[:70]}  <-  {direct[:90]}")
