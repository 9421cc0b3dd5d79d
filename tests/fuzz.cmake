# libFuzzer builds of the fuzz entry points (tests/formats/fuzz_*.cpp, tests/bellperson/
# fuzz_bellperson_params.cpp, tests/host/fuzz_config.cpp). Off by default: every build runs the
# entry points through the replay driver instead (fuzz_*_replay tests, any compiler). With
# ZKPIPE_FUZZ=ON and clang each entry point also becomes a libFuzzer binary fuzz_<name>, with
# ASan + UBSan, over instrumented copies of the libraries that hold the code under test
# (<lib>_fuzz) so libFuzzer sees their coverage. .ci/run's fuzzing phase builds only those
# (scripts/fuzz.sh) and runs each on its corpus under tests/fuzz-corpus/<name>/.
option(ZKPIPE_FUZZ "Build libFuzzer targets for the file parsers (needs clang)" OFF)
if(ZKPIPE_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "ZKPIPE_FUZZ needs clang (configure with CXX=clang++ CC=clang)")
endif()
set(ZKPIPE_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

# zkpipe_fuzz_copy(TARGET COPY [ONLY SOURCE...] [LINK LIB...]): COPY, a static library of
# TARGET's sources (or only the ones named: what the fuzzer reaches, so the build stays small)
# compiled with coverage and the sanitizers, with TARGET's include folders, linked to LIB...
# instead of TARGET's own dependencies, so an instrumented copy can take another's place.
function(zkpipe_fuzz_copy target copy)
  cmake_parse_arguments(arg "" "" "ONLY;LINK" ${ARGN})
  get_target_property(dir ${target} SOURCE_DIR)
  if(arg_ONLY)
    set(src ${arg_ONLY})
  else()
    get_target_property(src ${target} SOURCES)
  endif()
  list(TRANSFORM src PREPEND ${dir}/)
  add_library(${copy} STATIC ${src})
  get_target_property(inc ${target} INCLUDE_DIRECTORIES)
  if(inc)
    target_include_directories(${copy} PUBLIC ${inc})
  endif()
  target_compile_options(${copy} PRIVATE -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                                         -fno-omit-frame-pointer)
  target_link_libraries(${copy} PUBLIC ${arg_LINK})
  zkpipe_target_defaults(${copy})
endfunction()

# zkpipe_add_fuzzer(NAME SOURCE LINK...): the libFuzzer binary fuzz_NAME from SOURCE.
function(zkpipe_add_fuzzer name source)
  add_executable(fuzz_${name} ${source})
  target_link_libraries(fuzz_${name} PRIVATE ${ARGN})
  target_compile_options(fuzz_${name} PRIVATE ${ZKPIPE_FUZZ_FLAGS})
  target_link_options(fuzz_${name} PRIVATE ${ZKPIPE_FUZZ_FLAGS})
  zkpipe_target_defaults(fuzz_${name})
endfunction()
