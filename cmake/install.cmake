# install.cmake: what `cmake --install` puts under the prefix.
#   lib/            libcanopy, libcanopy_svg (static or shared per BUILD_SHARED_LIBS)
#   include/canopy/ the public headers
#   bin/            canopy, canopy-view (when built)
#   share/canopy/scenes/   the bundled scenes (the viewer finds them relative to its binary)
#   lib/cmake/canopy/      canopyConfig.cmake, its version file and the exported targets
#                          canopy::canopy and canopy::svg
#   lib/pkgconfig/  canopy.pc, canopy-svg.pc
include(CMakePackageConfigHelpers)

install(TARGETS canopy canopy_svg EXPORT canopyTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/canopy DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(TARGETS canopy_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET canopy-view)
  install(TARGETS canopy-view RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${CANOPY_BUNDLED_SCENES} DESTINATION ${CMAKE_INSTALL_DATADIR}/canopy/scenes)

set(CANOPY_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/canopy)
install(EXPORT canopyTargets NAMESPACE canopy:: DESTINATION ${CANOPY_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/canopyConfig.cmake.in
  ${PROJECT_BINARY_DIR}/canopyConfig.cmake INSTALL_DESTINATION ${CANOPY_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/canopyConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/canopyConfig.cmake ${PROJECT_BINARY_DIR}/canopyConfigVersion.cmake
  DESTINATION ${CANOPY_CMAKE_DIR})

# pkg-config: a static library's users also need its private dependencies.
if(BUILD_SHARED_LIBS)
  set(CANOPY_SVG_PC_REQUIRES_PRIVATE
    "Requires.private: libxml-2.0 libpng zlib libjpeg libwebp fontconfig freetype2 harfbuzz fribidi\nLibs.private: -lgif")
  set(CANOPY_SVG_PC_REQUIRES "")
else()
  set(CANOPY_SVG_PC_REQUIRES_PRIVATE "Libs.private: -lgif")
  set(CANOPY_SVG_PC_REQUIRES " libxml-2.0 libpng zlib libjpeg libwebp fontconfig freetype2 harfbuzz fribidi")
endif()
# The .pc files find the prefix from their own place, so an installed tree can move.
file(RELATIVE_PATH CANOPY_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" CANOPY_PC_TO_PREFIX "${CANOPY_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/canopy.pc.in ${PROJECT_BINARY_DIR}/canopy.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/canopy-svg.pc.in ${PROJECT_BINARY_DIR}/canopy-svg.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/canopy.pc ${PROJECT_BINARY_DIR}/canopy-svg.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/LICENSE-MIT ${PROJECT_SOURCE_DIR}/LICENSE-APACHE DESTINATION ${CMAKE_INSTALL_DOCDIR})
