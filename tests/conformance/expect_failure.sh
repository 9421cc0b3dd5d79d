#!/bin/bash
# expect_failure.sh TEXT ZKPIPE check-plugin ARGS... — the suite must fail a broken plugin for the
# right reason: exit 1 and a FAIL line containing TEXT. (A checker that passes everything would
# pass every test of the good plugins too; these are the tests of the checker.)
set -uo pipefail
text=$1
shift
out=$("$@" 2>&1); rc=$?
echo "$out"
if [ $rc -ne 1 ]; then echo "expected exit 1, got $rc"; exit 1; fi
if ! echo "$out" | grep "^FAIL" | grep -qF -- "$text"; then echo "expected a FAIL line with '$text'"; exit 1; fi
echo "failed as expected: $(echo "$out" | grep "^FAIL" | grep -F -- "$text" | head -n 1)"
