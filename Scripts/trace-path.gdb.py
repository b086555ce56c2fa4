# gdb script for Scripts/trace-path: runs the Benchmarks executable to traceBegins, puts a
# breakpoint on every function listed in TRACE_SYMBOLS (file address, symbol, source line),
# records each one entered until traceEnds, and writes them to TRACE_OUT as JSON.
import json
import os

import gdb

functions = []
with open(os.environ["TRACE_SYMBOLS"]) as listing:
    for line in listing:
        address, symbol, location = line.rstrip("\n").split(" ", 2)
        functions.append((int(address, 16), symbol, location))
hits = []


class Recorder(gdb.Breakpoint):
    def __init__(self, spec, symbol, location):
        super().__init__(spec, internal=True)
        self.symbol, self.source = symbol, location

    def stop(self):
        hits.append([self.symbol, self.source])
        return False


for command in ["set pagination off", "set confirm off", "handle SIGPIPE nostop noprint pass"]:
    gdb.execute(command)
gdb.execute("break $s10Benchmarks11traceBeginsyyF")
gdb.execute("break $s10Benchmarks9traceEndsyyF")
gdb.execute("run")
# The executable is position-independent: its file addresses start at its first mapping.
binary = os.path.realpath(os.environ["TRACE_BINARY"])
with open("/proc/%d/maps" % gdb.selected_inferior().pid) as maps:
    base = next(int(line.split("-")[0], 16) for line in maps if line.rstrip().endswith(binary))
for address, symbol, location in functions:
    Recorder("*0x%x" % (base + address), symbol, location)
gdb.execute("continue")
with open(os.environ["TRACE_OUT"], "w") as out:
    json.dump(hits, out)
gdb.execute("kill")
