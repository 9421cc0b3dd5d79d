#!/usr/bin/env bash
# Writes the seed corpus of fuzz_serve_request (tests/fuzz-corpus/serve_request/): a few
# JobRequest messages in protobuf's text format, encoded by protoc against the service's own
# .proto, so each seed is a message serve really receives. Run by hand after the message
# changes; the output is committed. Needs protoc (protobuf-compiler).
#   seed-witness      one partition, the multiplier sample's .wtns
#   seed-witnesses    three partitions, pinned to device 0, priority 2
#   seed-synthesized  one caller-synthesized partition: 2-row a, b, c, an assignment, bitmaps
#   seed-aux          synthesized with an aux assignment, Montgomery form, one bitmap unset
#   seed-both         witnesses and synthesized together (refused: INVALID_ARGUMENT)
#   seed-empty        no partitions (refused)
#   seed-short-bitmap a bitmap with fewer words than its bit_len needs (refused)
#   regress-bitlen-overflow  bit_len 2^64 - 1 and no words: ceil(bit_len / 64) computed as
#                     (bit_len + 63) / 64 wrapped to 0 and the bitmap was accepted (refused now)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=tests/fuzz-corpus/serve_request
proto=host/serve/proto
mkdir -p "$out"
# The .wtns as a text-format bytes literal: every byte as an octal escape.
wtns=$(od -An -v -to1 samples/circuits/multiplier_bn128/witness.wtns | tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//; s/ /\\/g; s/^/\\/')
one=$(printf '\\001%.0s' {1..1}; printf '\\000%.0s' {1..31})  # the scalar 1
two_rows="$one$one"
encode() { protoc --proto_path="$proto" --encode=zkpipe.v1.JobRequest zkpipe/v1/prover.proto >"$out/$1"; }
echo "key_id: 1 gpu_index: -1 witnesses: \"$wtns\"" | encode seed-witness
echo "key_id: 7 gpu_index: 0 priority: 2 witnesses: \"$wtns\" witnesses: \"$wtns\" witnesses: \"$wtns\"" |
  encode seed-witnesses
echo "key_id: 1 gpu_index: -1 synthesized { a: \"$two_rows\" b: \"$two_rows\" c: \"$two_rows\"
  assignment: \"$two_rows\" a_aux_density { words: \"\\001\\000\\000\\000\\000\\000\\000\\000\" bit_len: 1 }
  b_input_density { words: \"\\003\\000\\000\\000\\000\\000\\000\\000\" bit_len: 2 }
  b_aux_density { words: \"\\001\\000\\000\\000\\000\\000\\000\\000\" bit_len: 1 } }" | encode seed-synthesized
echo "key_id: 2 synthesized { a: \"$one\" b: \"$one\" c: \"$one\" assignment: \"$one\" aux_assignment: \"$two_rows\"
  montgomery: true a_aux_density { words: \"\\002\\000\\000\\000\\000\\000\\000\\000\" bit_len: 2 }
  b_aux_density { words: \"\" bit_len: 0 } }" | encode seed-aux
echo "key_id: 1 witnesses: \"$wtns\" synthesized { a: \"$one\" b: \"$one\" c: \"$one\" assignment: \"$one\" }" |
  encode seed-both
echo "key_id: 1 gpu_index: -1" | encode seed-empty
echo "key_id: 1 synthesized { a: \"$one\" b: \"$one\" c: \"$one\" assignment: \"$one\"
  a_aux_density { words: \"\\001\\000\\000\\000\\000\\000\\000\\000\" bit_len: 65 } }" | encode seed-short-bitmap
echo "key_id: 1 synthesized { a: \"$one\" b: \"$one\" c: \"$one\" assignment: \"$one\"
  a_aux_density { words: \"\" bit_len: 18446744073709551615 } }" | encode regress-bitlen-overflow
ls -l "$out"
