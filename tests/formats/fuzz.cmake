# Fuzzing the parsers. Each fuzz_<t>.cpp is a libFuzzer entry point (LLVMFuzzerTestOneInput).
#  - Always: fuzz_<t>_replay = entry point + fuzz_driver.cpp, run by CTest over the committed
#    vectors plus seeded mutations, so CI exercises the parsers with garbage on GCC.
#  - ZKPIPE_FUZZ=ON with clang (tests/fuzz.cmake): fuzz_<t> = real libFuzzer binaries (ASan +
#    UBSan) over an instrumented copy of zkp_formats. Run e.g.
#    `build/bin/fuzz_zkey -max_total_time=600 tests/fuzz-corpus/zkey/` (scripts/fuzz.sh: all).

set(_zkp_data ${PROJECT_SOURCE_DIR}/tests/vectors/data)
set(_zkp_dirs chain_bn128 chain_bls12381 many_public_bn128 many_public_bls12381 poseidon_bn128 poseidon_bls12381)
set(_zkp_seeds_zkey ${PROJECT_SOURCE_DIR}/samples/circuits/multiplier_bn128/circuit.zkey)
set(_zkp_seeds_wtns ${PROJECT_SOURCE_DIR}/samples/circuits/multiplier_bn128/witness.wtns)
set(_zkp_seeds_r1cs ${PROJECT_SOURCE_DIR}/samples/circuits/multiplier_bn128/circuit.r1cs)
set(_zkp_seeds_json ${PROJECT_SOURCE_DIR}/samples/circuits/multiplier_bn128/proof.json)
foreach(d ${_zkp_dirs})
  list(APPEND _zkp_seeds_zkey ${_zkp_data}/${d}/circuit.zkey)
  list(APPEND _zkp_seeds_wtns ${_zkp_data}/${d}/witness.wtns)
  list(APPEND _zkp_seeds_r1cs ${_zkp_data}/${d}/circuit.r1cs)
  list(APPEND _zkp_seeds_json ${_zkp_data}/${d}/proof.json ${_zkp_data}/${d}/public.json ${_zkp_data}/${d}/vkey.json)
endforeach()

foreach(t zkey wtns r1cs json)
  add_executable(fuzz_${t}_replay fuzz_${t}.cpp fuzz_driver.cpp)
  target_link_libraries(fuzz_${t}_replay PRIVATE zkpipe::formats)
  # The r1cs entry point runs the prover's r1cs check: prime fields and the pool.
  if(t STREQUAL "r1cs")
    target_link_libraries(fuzz_${t}_replay PRIVATE zkpipe::ff zkpipe::util)
  endif()
  zkpipe_target_defaults(fuzz_${t}_replay)
  # 20000 mutated inputs or 60 s, whichever comes first (zkey, the slowest: ~8 s on 2 busy cores, Release).
  add_test(NAME fuzz_${t}_replay
           COMMAND fuzz_${t}_replay --iterations 20000 --seconds 60 --seed 1 ${_zkp_seeds_${t}})
  set_tests_properties(fuzz_${t}_replay PROPERTIES TIMEOUT 120)
endforeach()

if(ZKPIPE_FUZZ)
  # The parsers carry coverage instrumentation too: an instrumented copy of zkp_formats, linked
  # as zkp_formats is (read_zkey's coefficient checks take a ThreadPool).
  zkpipe_fuzz_copy(zkp_formats zkp_formats_fuzz LINK zkpipe::util)
  foreach(t zkey wtns r1cs json)
    set(_zkp_libs zkp_formats_fuzz)
    if(t STREQUAL "r1cs")
      list(APPEND _zkp_libs zkpipe::ff zkpipe::util)
    endif()
    zkpipe_add_fuzzer(${t} fuzz_${t}.cpp ${_zkp_libs})
  endforeach()
endif()
