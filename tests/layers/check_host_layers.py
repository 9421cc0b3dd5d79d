#!/usr/bin/env python3
"""host/'s layers, checked from the include lines (docs/ARCHITECTURE.md, "The layers").

The runtime (host/src, host/capi, host/device, host/include) shows the rest of the tree only the
headers in host/include/zkpipe/host/; everything else of it is private. Above it, the services
(host/services) are shared by the front ends (host/cli, host/serve, host/queue, host/client,
host/rapidsnark), and a front end includes no other front end's files. Above them, host/net
puts the `zkpipe` program's gRPC and libpq commands, each defined by its front end, into one
module: it may include the front ends' files, and nothing includes its own.

Fails (exit 1), naming file:line, when
  1. a file outside the runtime includes a runtime-private header (one found under host/src
     or host/device, or a <zkpipe/host/...> header that is not in host/include/zkpipe/host);
  2. a CMakeLists.txt outside the runtime puts host/src or host/device on an include path;
  3. the services include a front end's file;
  4. a front end includes another front end's file, or anything includes host/net's.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
HOST = os.path.join(ROOT, "host")
RUNTIME_PRIVATE = ["src", "device"]
FRONT_ENDS = ["cli", "serve", "queue", "client", "rapidsnark"]
SERVICES = "services"
ASSEMBLY = "net"  # the net module: the front ends' commands put together
PUBLIC_DIR = os.path.join(HOST, "include", "zkpipe", "host")


SOURCE = re.compile(r"\.(c|cc|cpp|h|hpp|cu|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def files_under(folder):
    for dirpath, _, names in os.walk(folder):
        for name in sorted(names):
            if SOURCE.search(name):
                yield os.path.join(dirpath, name)


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1), m.group(2)


def owner(path):
    """The host/ folder a file of host/ lives in ("cli", "src", ...), or None outside host/."""
    rel = os.path.relpath(path, HOST)
    return None if rel.startswith("..") else rel.split(os.sep)[0]


def where(including_file, name):
    """The host/ folders a quoted include can resolve into (its own folder first)."""
    found = []
    own = os.path.join(os.path.dirname(including_file), name)
    if os.path.isfile(own):
        found.append(owner(own))
    for folder in FRONT_ENDS + [SERVICES, ASSEMBLY] + RUNTIME_PRIVATE:
        if os.path.isfile(os.path.join(HOST, folder, name)):
            found.append(folder)
    if os.path.isfile(os.path.join(HOST, name)):  # named from host/: "serve/server.hpp"
        found.append(name.split("/")[0])
    return found


def main():
    problems = []
    tree = [os.path.join(ROOT, d) for d in ("host", "tests", "samples", "provers", "plugins", "pacers", "abi")]
    for top in tree:
        for path in files_under(top):
            me = owner(path)
            if me in RUNTIME_PRIVATE or me == "capi" or me == "include":
                continue  # the runtime itself
            rel = os.path.relpath(path, ROOT)
            for number, kind, name in includes(path):
                at = f"{rel}:{number}"
                if kind == "<" and name.startswith("zkpipe/host/"):
                    if not os.path.isfile(os.path.join(PUBLIC_DIR, name[len("zkpipe/host/"):])):
                        problems.append(f"{at}: <{name}> is no public header of the runtime")
                    continue
                if kind != '"':
                    continue
                places = where(path, name)
                if not places or me in places:
                    continue  # its own file, or not a host/ file (core/..., generated code)
                if any(p in RUNTIME_PRIVATE for p in places) and me is None and rel.startswith("tests"):
                    continue  # tests of the runtime's internals read its private headers
                if any(p in RUNTIME_PRIVATE for p in places):
                    problems.append(f"{at}: \"{name}\" is private to the runtime (host/{places[0]})")
                elif me == SERVICES:
                    problems.append(f"{at}: the services include front end {places[0]}'s \"{name}\"")
                elif ASSEMBLY in places:
                    problems.append(f"{at}: \"{name}\" is the net module's (host/{ASSEMBLY}), which nothing includes")
                elif me in FRONT_ENDS and places[0] in FRONT_ENDS:
                    problems.append(f"{at}: front end {me} includes front end {places[0]}'s \"{name}\"")
    for dirpath, _, names in os.walk(ROOT):
        if "CMakeLists.txt" not in names or owner(dirpath) is None and not dirpath.startswith(os.path.join(ROOT, "tests")):
            continue
        if os.path.relpath(dirpath, ROOT).startswith(("build", ".git")) or "node_modules" in dirpath:
            continue
        if dirpath == HOST:
            continue  # the runtime's own targets are declared there
        with open(os.path.join(dirpath, "CMakeLists.txt"), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if "include_directories" in line and re.search(r"host/(src|device)\b|\.\./(src|device)\b", line):
                    if dirpath.startswith(os.path.join(ROOT, "tests")):
                        continue  # tests of the runtime's internals
                    problems.append(f"{os.path.relpath(dirpath, ROOT)}/CMakeLists.txt:{number}: "
                                    "puts the runtime's private folder on an include path")
    for p in problems:
        print(p)
    print(f"host layers: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
