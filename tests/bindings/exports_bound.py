#!/usr/bin/env python3
"""exports_bound.py ROOT [LIBZKPIPE [LIBZKPIPE_CLIENT]] -- every export of the C ABI is bound.

For libzkpipe (abi/zkpipe/zkp_host.h) and libzkpipe_client (abi/zkpipe/zkp_client.h):
  - the header's ZKP_EXPORT functions are what the library's version script exports
    (host/libzkpipe.map, host/client/libzkpipe_client.map) and, when the built library is
    given, exactly the functions it exports (nm -D): a function exported but not declared, or
    declared but not exported, fails;
  - each of them is declared by the Rust -sys layer (an `extern "C"` `pub fn NAME(`), called by
    the safe Rust crate on top of it, and called by the Go package (`C.NAME`, or from its C
    files), unless NOT_BOUND below says why that binding leaves it out.
Issue 39: zkp_host_unload_key had none of the three, and no test said so. Exit 0 when all hold,
1 with one line per gap.
"""
import fnmatch
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(sys.argv[1])
LIBS = sys.argv[2:]

# Each library: its header, version script, and the files of each binding (glob, pattern of a
# use, with NAME standing for the function).
APIS = {
    "libzkpipe": {
        "header": "abi/zkpipe/zkp_host.h",
        "map": "host/libzkpipe.map",
        "bindings": {
            "zkpipe-sys (Rust, raw)": [("abi/rust/zkpipe-sys/src/*.rs", r"\bpub fn NAME\s*\(")],
            "zkpipe (Rust, safe)": [("abi/rust/zkpipe/src/*.rs", r"\bsys::NAME\b")],
            "abi/go/zkpipe (Go)": [("abi/go/zkpipe/*.go", r"\bC\.NAME\b"), ("abi/go/zkpipe/*.c", r"\bNAME\s*\(")],
        },
    },
    "libzkpipe_client": {
        "header": "abi/zkpipe/zkp_client.h",
        "map": "host/client/libzkpipe_client.map",
        "bindings": {
            "zkpipe-client (Rust, raw: ffi.rs)": [("abi/rust/zkpipe-client/src/ffi.rs", r"\bpub fn NAME\s*\(")],
            "zkpipe-client (Rust, safe)": [("abi/rust/zkpipe-client/src/*.rs", r"\bffi::NAME\b")],
            "abi/go/zkpipe/client (Go)": [("abi/go/zkpipe/client/*.go", r"\bC\.NAME\b")],
        },
    },
}

# (binding, function) -> why that binding does without it. Each must name a real export.
NOT_BOUND = {
    ("abi/go/zkpipe (Go)", "zkp_host_wait"): "a Job's Wait is its done channel, closed by the summary callback",
    ("abi/go/zkpipe (Go)", "zkp_host_shutdown"): "Close drains and frees the host in one call (zkp_host_destroy)",
}

EXPORT = re.compile(r"\bZKP_EXPORT\b[^;{(]*?\b(zkp_\w+)\s*\(")


def header_exports(path):
    text = re.sub(r"/\*.*?\*/", " ", (ROOT / path).read_text(), flags=re.S)
    return set(EXPORT.findall(text))


def map_globals(path):
    text = re.sub(r"/\*.*?\*/", " ", (ROOT / path).read_text(), flags=re.S)
    m = re.search(r"global:(.*?)local:", text, flags=re.S)
    return [g.strip() for g in (m.group(1) if m else "").split(";") if g.strip()]


def library_exports(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    return {parts[2] for parts in (line.split() for line in out.splitlines()) if len(parts) == 3 and parts[1] == "T"}


def uses(files, pattern, name):
    rx = re.compile(pattern.replace("NAME", re.escape(name)))
    return any(rx.search(text) for text in files)


def main():
    problems = []
    checked = 0
    for (binding, name), _ in NOT_BOUND.items():
        if not any(binding in api["bindings"] and name in header_exports(api["header"]) for api in APIS.values()):
            problems.append(f"NOT_BOUND names {name} for {binding}, which is no export of that library")
    for i, (lib_name, api) in enumerate(APIS.items()):
        exports = header_exports(api["header"])
        if not exports:
            problems.append(f"{api['header']}: no ZKP_EXPORT function found")
            continue
        globs = map_globals(api["map"])
        for name in sorted(exports):
            if not any(fnmatch.fnmatchcase(name, g) for g in globs):
                problems.append(f"{lib_name}: {name} is declared in {api['header']} but {api['map']} does not export it")
        if i < len(LIBS) and LIBS[i]:
            built = library_exports(LIBS[i])
            for name in sorted(built - exports):
                problems.append(f"{lib_name}: {LIBS[i]} exports {name}, which {api['header']} does not declare")
            for name in sorted(exports - built):
                problems.append(f"{lib_name}: {api['header']} declares {name}, which {LIBS[i]} does not export")
        for binding, sources in api["bindings"].items():
            per_source = []
            for pattern_glob, pattern in sources:
                files = [p.read_text() for p in sorted(ROOT.glob(pattern_glob)) if not p.name.endswith("_test.go")]
                if not files:
                    problems.append(f"{binding}: no file matches {pattern_glob}")
                per_source.append((files, pattern))
            for name in sorted(exports):
                checked += 1
                if (binding, name) in NOT_BOUND:
                    continue
                if not any(uses(files, pattern, name) for files, pattern in per_source):
                    problems.append(f"{binding} does not bind {name} ({lib_name}, {api['header']})")
    for p in problems:
        print(p)
    print(f"{checked} (binding, export) pairs checked, {len(NOT_BOUND)} left out on purpose, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
