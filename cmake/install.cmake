# Installation: headers, the library (shared and static by default; one of them when BUILD_SHARED_LIBS is
# set), circlesim.pc for pkg-config and a CMake package (find_package(circlesim CONFIG) → circlesim::circlesim).
# The library links cJSON privately, so static consumers get it through Requires.private (pkg-config
# --static) or find_dependency (CMake). CHOLMOD and FCLIB are loaded on first use (src/core/lazy_lib.h):
# consumers need them installed to use pgs-sm/ipm with CHOLMOD or FCLIB files, not to link.
include(CMakePackageConfigHelpers)

set(CS_INSTALL_TARGETS "")
if(NOT DEFINED BUILD_SHARED_LIBS OR NOT BUILD_SHARED_LIBS)
  set_target_properties(circlesim PROPERTIES EXPORT_NAME circlesim_static POSITION_INDEPENDENT_CODE OFF)
  list(APPEND CS_INSTALL_TARGETS circlesim)
endif()
if(NOT DEFINED BUILD_SHARED_LIBS OR BUILD_SHARED_LIBS)
  # A second compile of the same sources (position-independent), so the in-tree static library and its
  # benchmarks keep their code unchanged.
  cs_library_target(circlesim_shared SHARED)
  set_target_properties(circlesim_shared PROPERTIES
    OUTPUT_NAME circlesim EXPORT_NAME circlesim_shared
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  list(APPEND CS_INSTALL_TARGETS circlesim_shared)
endif()
set(CS_STATIC_INSTALLED OFF)
if(TARGET circlesim AND "circlesim" IN_LIST CS_INSTALL_TARGETS)
  set(CS_STATIC_INSTALLED ON)
endif()

install(TARGETS ${CS_INSTALL_TARGETS} EXPORT circlesimTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/circlesim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(CS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/circlesim)
install(EXPORT circlesimTargets NAMESPACE circlesim:: DESTINATION ${CS_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/circlesimConfig.cmake.in
  ${CMAKE_BINARY_DIR}/circlesimConfig.cmake INSTALL_DESTINATION ${CS_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/circlesimConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/circlesimConfig.cmake ${CMAKE_BINARY_DIR}/circlesimConfigVersion.cmake
  DESTINATION ${CS_CMAKE_DIR})

# Relocatable: the prefix is found from the .pc file's own place, so `cmake --install --prefix P` works.
file(RELATIVE_PATH CS_PC_UP "/cs/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/cs")
set(CS_PC_PREFIX "\${pcfiledir}/${CS_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/circlesim.pc.in ${CMAKE_BINARY_DIR}/circlesim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/circlesim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The headless CLI goes with the library (the viewer stays a build-tree program).
install(TARGETS circlesim-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
