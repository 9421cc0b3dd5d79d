# Warnings and sanitizers for every zkpipe target: call zkpipe_target_defaults(tgt).
set(ZKPIPE_WARNINGS -Wall -Wextra)
if(ZKPIPE_WERROR)
  list(APPEND ZKPIPE_WARNINGS -Werror)
endif()

# Build type Sanitize (-DCMAKE_BUILD_TYPE=Sanitize), for the sanitizer builds of .ci/run: -O1
# keeps ASan/UBSan/TSan reports accurate and their tests fast enough, -g1 gives the line
# tables the reports' stack traces need, NDEBUG as in the release build so the same code is
# tested. Against RelWithDebInfo (-O2 -g) it compiles the heavy template-instantiation units
# in 0.44-0.55 of the CPU time, for sanitized tests about 13% slower (docs/CI.md).
# project() has already made these cache entries, empty, for a build type CMake does not know,
# so fill them (FORCE) only while empty: a value given with -D wins.
foreach(_zkp_lang C CXX)
  if(NOT CMAKE_${_zkp_lang}_FLAGS_SANITIZE)
    set(CMAKE_${_zkp_lang}_FLAGS_SANITIZE "-O1 -g1 -DNDEBUG" CACHE STRING
        "Flags used by the ${_zkp_lang} compiler during SANITIZE builds." FORCE)
  endif()
endforeach()

if(ZKPIPE_SANITIZE)
  set(_zkp_san -fsanitize=${ZKPIPE_SANITIZE} -fno-omit-frame-pointer)
  if(ZKPIPE_SANITIZE MATCHES "undefined")
    # UBSan without two of its checks: null (a member access or reference through a null
    # pointer; AddressSanitizer already stops at any null dereference, with the stack) and vptr
    # (a call through an object of the wrong dynamic type; the few polymorphic classes here are
    # not cast). GCC instruments every pointer use for them, a quarter to a third of a heavy
    # unit's compile time under ASan+UBSan (test_msm.cpp 337 -> 255 s, mont_test.cpp 69 -> 49 s,
    # docs/CI.md); the other checks (alignment, shifts, overflow, bounds, enums, returns) stay.
    list(APPEND _zkp_san -fno-sanitize-recover=undefined -fno-sanitize=null,vptr)
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_zkp_san}>")
  add_link_options(${_zkp_san})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # A C program (the C samples and ABI tests) linked by clang gets the C runtime of the
    # sanitizer, which lacks the C++ parts libzkpipe needs (UBSan's handlers for function type
    # checks of indirect calls; TSan's and ASan's interception of operator new and delete):
    # link the C++ one, and the C++ library it needs.
    add_link_options(-fsanitize-link-c++-runtime "$<$<LINK_LANGUAGE:C>:-lstdc++>")
  endif()
endif()

function(zkpipe_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:${ZKPIPE_WARNINGS}>")
endfunction()

# add_subdirectory for each listed folder. A folder that is listed and missing is an error,
# not a silent skip: a README that cites a sample the build never saw is how that went wrong.
function(zkpipe_add_subdirs)
  foreach(d ${ARGN})
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${d}/CMakeLists.txt)
      message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}/${d}/CMakeLists.txt does not exist (listed in zkpipe_add_subdirs)")
    endif()
    add_subdirectory(${d})
  endforeach()
endfunction()
