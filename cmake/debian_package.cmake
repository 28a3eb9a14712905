# `make package`: a .deb made by CPack that lintian accepts. Its dependencies are the Debian runtime
# packages the program links (dpkg-shlibdeps finds them); ffmpeg and Mesa are recommended for video
# and headless rendering, python3 and NumPy for the module. The Debian files (copyright, changelog)
# are made here from the project's own LICENSE and packaging/deb/changelog, so they cannot drift.
set(_deb_release 1)
set(_deb_maintainer "physarum developers <physarum@users.noreply.github.com>")
set(_deb_dir ${PROJECT_BINARY_DIR}/deb)
set(_deb_source ${PROJECT_SOURCE_DIR}/packaging/deb)
file(MAKE_DIRECTORY ${_deb_dir})
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/LICENSE ${_deb_source}/changelog ${_deb_source}/lintian-overrides)

# The changelog's newest entry names the version the package gets; a release must add an entry.
file(STRINGS ${_deb_source}/changelog _deb_top LIMIT_COUNT 1)
if(NOT _deb_top MATCHES "^physarum \\(${PROJECT_VERSION}-${_deb_release}\\) ")
  message(FATAL_ERROR "physarum: packaging/deb/changelog starts with '${_deb_top}', but the package is "
                      "version ${PROJECT_VERSION}-${_deb_release}: add an entry for it")
endif()
find_program(GZIP_EXECUTABLE gzip REQUIRED)
# -n: no name or time stamp inside, so the same input makes the same bytes (reproducible packages).
execute_process(COMMAND ${GZIP_EXECUTABLE} -9nc ${_deb_source}/changelog
                OUTPUT_FILE ${_deb_dir}/changelog.Debian.gz COMMAND_ERROR_IS_FATAL ANY)

# The machine-readable copyright file (DEP-5): LICENSE's copyright line and text, the text indented
# by one space with "." for blank lines as the format asks.
file(STRINGS ${PROJECT_SOURCE_DIR}/LICENSE _license_lines)
set(_copyright_holder "")
set(_license_text "")
foreach(line IN LISTS _license_lines)
  if(line MATCHES "^Copyright \\(c\\) (.+)$")
    set(_copyright_holder ${CMAKE_MATCH_1})
  elseif(_copyright_holder STREQUAL "" OR (_license_text STREQUAL "" AND line STREQUAL ""))
    continue()
  elseif(line STREQUAL "")
    string(APPEND _license_text " .\n")
  else()
    string(APPEND _license_text " ${line}\n")
  endif()
endforeach()
file(STRINGS ${PROJECT_SOURCE_DIR}/LICENSE _license_name LIMIT_COUNT 1)
if(NOT _license_name STREQUAL "MIT License" OR _copyright_holder STREQUAL "")
  message(FATAL_ERROR "physarum: LICENSE is no longer the MIT licence with one 'Copyright (c) ...' line; "
                      "update cmake/debian_package.cmake, which writes the package's copyright file from it")
endif()
file(WRITE ${_deb_dir}/copyright
     "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
     "Upstream-Name: physarum\n"
     "Upstream-Contact: ${_deb_maintainer}\n\n"
     "Files: *\n"
     "Copyright: ${_copyright_holder}\n"
     "License: Expat\n\n"
     "License: Expat\n"
     "${_license_text}")

install(FILES ${_deb_dir}/copyright ${_deb_dir}/changelog.Debian.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${_deb_source}/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME physarum)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME physarum)
set(CPACK_PACKAGE_VENDOR "physarum developers")
set(CPACK_PACKAGE_CONTACT ${_deb_maintainer})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "grows a Physarum (slime-mould) transport network live on the GPU")
set(CPACK_PACKAGE_DESCRIPTION
    "Agents sense, turn, move and deposit on a diffusing, decaying trail field and\n"
    "grow the networks a slime mould grows between food sources. The program shows\n"
    "the growth live in a window, renders frames and videos headless, measures the\n"
    "network, exports height maps and contours, and sweeps parameters. It runs on\n"
    "CUDA GPUs and, without one, on the CPU. A Python module (import physarum)\n"
    "drives the same simulation from NumPy.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${_deb_release})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
# glad opens libEGL and libGL at run time (dlopen), so dpkg-shlibdeps cannot see them.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libegl1, libgl1")
set(_deb_recommends "ffmpeg, libegl-mesa0, libgl1-mesa-dri")
if(PHYSARUM_PYTHON_ABI)
  # The module is built for one Python version (its file name says which): that python3.
  string(REPLACE "." ";" _py "${PHYSARUM_PYTHON_ABI}")
  list(GET _py 0 _py_major)
  list(GET _py 1 _py_minor)
  math(EXPR _py_next "${_py_minor} + 1")
  string(APPEND _deb_recommends
         ", python3 (>= ${PHYSARUM_PYTHON_ABI}~), python3 (<< ${_py_major}.${_py_next}), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS ${_deb_recommends})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
include(CPack)
