#!/usr/bin/env python3
"""Reads a host's stderr (log_format = json) on stdin: every line must be one JSON object with
time, level, logger and message, and the host's ready line must be one of them, at info."""
import json
import sys

lines = []
for number, text in enumerate(sys.stdin, 1):
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        sys.exit(f"line {number} is not JSON ({e}): {text!r}")
    missing = {"time", "level", "logger", "message"} - set(record)
    if missing:
        sys.exit(f"line {number} lacks {sorted(missing)}: {text!r}")
    lines.append(record)
ready = [r for r in lines if r["message"].startswith("host ready") and r["level"] == "info" and r["logger"] == "zkpipe"]
if not ready:
    sys.exit(f"no 'host ready' line at info among {len(lines)} lines: {lines}")
print(f"{len(lines)} json lines, host ready at info")
