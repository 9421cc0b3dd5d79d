# What `cmake --install` puts under the prefix besides the programs, libraries and plugins the
# subfolders install: the headers (abi/, plugins/; zkp_client.h and zkp_queue.h come with
# their libraries, from host/client and host/queue), the CMake package
# (<libdir>/cmake/zkpipe: zkpipeConfig.cmake, zkpipeConfigVersion.cmake, the exported targets,
# zkpipe_add_plugin and its export map) and the pkg-config files (<libdir>/pkgconfig/zkpipe.pc, and
# zkpipe-client.pc where libzkpipe_client is built).
include(CMakePackageConfigHelpers)
set(_zkp_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/zkpipe")

install(TARGETS zkp_abi zkp_plugin_sdk EXPORT zkpipeTargets)
install(EXPORT zkpipeTargets NAMESPACE zkpipe:: DESTINATION "${_zkp_cmake_dir}")

configure_package_config_file(cmake/zkpipeConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/zkpipeConfig.cmake"
  INSTALL_DESTINATION "${_zkp_cmake_dir}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR ZKPIPE_PLUGIN_INSTALL_DIR)
# 0.x: a new minor version may change the C API of libzkpipe (its SOVERSION is major.minor).
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/zkpipeConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/zkpipeConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/zkpipeConfigVersion.cmake"
  cmake/zkpipeAddPlugin.cmake
  cmake/plugin.map
  DESTINATION "${_zkp_cmake_dir}")

# The ABI version, read from the header that defines it, so the .pc file cannot disagree.
file(STRINGS abi/zkpipe/zkp_common.h _zkp_abi_line REGEX "^#define ZKP_ABI_VERSION [0-9]+u")
string(REGEX REPLACE "^#define ZKP_ABI_VERSION ([0-9]+)u.*" "\\1" ZKPIPE_ABI_VERSION "${_zkp_abi_line}")
file(RELATIVE_PATH ZKPIPE_PC_PREFIX_FROM_PCDIR "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" ZKPIPE_PC_PREFIX_FROM_PCDIR "${ZKPIPE_PC_PREFIX_FROM_PCDIR}")
configure_file(cmake/zkpipe.pc.in "${CMAKE_CURRENT_BINARY_DIR}/zkpipe.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/zkpipe.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(TARGET zkpipe_client)
  configure_file(cmake/zkpipe-client.pc.in "${CMAKE_CURRENT_BINARY_DIR}/zkpipe-client.pc" @ONLY)
  install(FILES "${CMAKE_CURRENT_BINARY_DIR}/zkpipe-client.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
