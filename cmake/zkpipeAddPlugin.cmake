# zkpipe_add_plugin(NAME SOURCES...): a zkpipe plugin as a MODULE library, the one way to build
# one, in zkpipe's own tree and out of it (this file is installed with the CMake package).
#
#   find_package(zkpipe 0.1 REQUIRED)
#   zkpipe_add_plugin(zkp_prover_mine mine.cpp)   # -> libzkp_prover_mine.so
#
# What it sets, and why:
#  - MODULE, "lib" prefix: the host dlopen()s lib*.so files; nothing links against a plugin.
#  - links zkpipe::plugin_sdk (the C++ SDK and the abi/ headers; both header-only).
#  - hidden visibility and the version script plugin.map: the library exports zkp_plugin_entry
#    alone. Without it a C++ plugin exports every inline and template instantiation of the SDK
#    (18 symbols for the smallest prover), and two plugins in one process may bind to each
#    other's copies.
#  - installs into ZKPIPE_PLUGIN_INSTALL_DIR (default <libdir>/zkpipe, relative to the install
#    prefix): the folder an installed `zkpipe` searches (its ../lib/zkpipe), so installing a
#    plugin into zkpipe's prefix makes it loadable by short name.
include_guard(GLOBAL)
include(GNUInstallDirs)
set(ZKPIPE_PLUGIN_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/zkpipe" CACHE STRING
    "Where zkpipe_add_plugin installs plugins, relative to the install prefix")

function(zkpipe_add_plugin tgt)
  if(NOT ARGN)
    message(FATAL_ERROR "zkpipe_add_plugin(${tgt}): no sources")
  endif()
  set(map "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/plugin.map")
  add_library(${tgt} MODULE ${ARGN})
  target_link_libraries(${tgt} PRIVATE zkpipe::plugin_sdk)
  set_target_properties(${tgt} PROPERTIES
    PREFIX "lib" CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${tgt} PRIVATE "LINKER:--version-script=${map}")
  set_property(TARGET ${tgt} APPEND PROPERTY LINK_DEPENDS "${map}")
  if(COMMAND zkpipe_target_defaults)  # zkpipe's own tree: its warnings and sanitizers
    zkpipe_target_defaults(${tgt})
  endif()
  install(TARGETS ${tgt} LIBRARY DESTINATION "${ZKPIPE_PLUGIN_INSTALL_DIR}")
endfunction()
