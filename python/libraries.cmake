# The libraries the Python module links, handed from one build folder to another: a build with
# position-independent libraries records them (physarum_record_module_libraries), and a build of the
# module alone, configured with -DPHYSARUM_LIBRARIES_FROM=THAT_FOLDER, links against them
# (physarum_import_module_libraries). That is how the module is made on a machine whose Python has
# none of Debian's packages (the GPU machine: Python 3.12, torch, pip's pybind11): the libraries are
# built here, only python/src is compiled there, with that machine's Python and pybind11.
#
# The record is CMake's own: the include folders and definitions of a stand-in module linking the
# same libraries (evaluated when the build is generated), and its link command as CMake wrote it,
# caught by a launcher when the stand-in is linked (record_link.cmake), so the order and the
# system libraries are what CMake chose, not a list kept by hand. Static archives from outside the
# build folder (CUDA's runtime) and dlpack.h are copied into it, since the other machine may lack them.

set(PHYSARUM_LIBRARIES_RECORD_DIR python/libraries)

# In a full build: records what a module linking `links` needs. Once per build folder.
function(physarum_record_module_libraries)
  if(TARGET physarum_python_libraries)
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/${PHYSARUM_LIBRARIES_RECORD_DIR})
  add_library(physarum_python_libraries MODULE ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/libraries_probe.cpp)
  target_link_libraries(physarum_python_libraries PRIVATE ${ARGN})
  set_target_properties(physarum_python_libraries PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${dir}
    LINK_DEPENDS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/record_link.cmake
    RULE_LAUNCH_LINK "\"${CMAKE_COMMAND}\" -DRECORD=${dir}/link.cmake -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSTAGE=${dir}/stage -DREADELF=${CMAKE_READELF} -DOBJECT=physarum_python_libraries.dir/ -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/record_link.cmake --")
  find_path(PHYSARUM_DLPACK_HEADER_DIR dlpack/dlpack.h)
  if(PHYSARUM_DLPACK_HEADER_DIR)
    file(COPY ${PHYSARUM_DLPACK_HEADER_DIR}/dlpack/dlpack.h DESTINATION ${dir}/stage/dlpack)
  endif()
  # Bracket arguments: a definition may hold quotes.
  file(GENERATE OUTPUT ${dir}/recipe.cmake CONTENT
"# What a module built against this folder's libraries needs (python/libraries.cmake).
set(PHYSARUM_LIBRARIES_VERSION [==[${PROJECT_VERSION}]==])
set(PHYSARUM_LIBRARIES_SOURCE_DIR [==[${PROJECT_SOURCE_DIR}]==])
set(PHYSARUM_LIBRARIES_BINARY_DIR [==[${CMAKE_BINARY_DIR}]==])
set(PHYSARUM_LIBRARIES_INCLUDES [==[$<TARGET_PROPERTY:physarum_python_libraries,INCLUDE_DIRECTORIES>]==])
set(PHYSARUM_LIBRARIES_DEFINITIONS [==[$<TARGET_PROPERTY:physarum_python_libraries,COMPILE_DEFINITIONS>]==])
set(PHYSARUM_LIBRARIES_LAUNCHER [==[${CMAKE_CXX_COMPILER_LAUNCHER}]==])
")
endfunction()

# A path of the recorded build on this machine: the recorded build folder is `from` here, its
# source folder this one; anything else is kept as it is.
function(_physarum_libraries_path out path)
  foreach(pair "${PHYSARUM_LIBRARIES_BINARY_DIR};${from}" "${PHYSARUM_LIBRARIES_SOURCE_DIR};${PROJECT_SOURCE_DIR}")
    list(GET pair 0 old)
    list(GET pair 1 new)
    string(LENGTH "${old}/" n)
    string(SUBSTRING "${path}" 0 ${n} head)
    if(head STREQUAL "${old}/" OR path STREQUAL old)
      string(SUBSTRING "${path}" ${n} -1 tail)
      set(${out} "${new}/${tail}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

# A shared library the recorded link named that this machine lacks at that path: a file with its
# soname (what the loader will look for) in PHYSARUM_LIB_DIR or the linker's own folders.
function(_physarum_libraries_find_soname out path soname)
  set(dirs ${PHYSARUM_LIB_DIR} ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES} ${CMAKE_SYSTEM_LIBRARY_PATH})
  foreach(dir IN LISTS dirs)
    if(dir AND EXISTS "${dir}/${soname}")
      set(${out} "${dir}/${soname}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "physarum: the libraries of ${from} link ${path} (soname ${soname}), which this "
                      "machine lacks; put a copy named ${soname} in a folder and pass "
                      "-DPHYSARUM_LIB_DIR=THAT_FOLDER (or set PHYSARUM_LIB_DIR for pip)")
endfunction()

# In a build of the module alone: the target `name` carries the recorded includes, definitions and
# link items of the build folder `from`, its paths made valid on this machine.
function(physarum_import_module_libraries name from)
  get_filename_component(from "${from}" ABSOLUTE)
  set(dir ${from}/${PHYSARUM_LIBRARIES_RECORD_DIR})
  if(NOT EXISTS ${dir}/recipe.cmake)
    message(FATAL_ERROR "physarum: PHYSARUM_LIBRARIES_FROM=${from} holds no libraries for the module "
                        "(${dir}/recipe.cmake): configure it with -DCMAKE_POSITION_INDEPENDENT_CODE=ON "
                        "(or with the Python module) and build it")
  endif()
  if(NOT EXISTS ${dir}/link.cmake)
    message(FATAL_ERROR "physarum: PHYSARUM_LIBRARIES_FROM=${from} is configured but not built "
                        "(no ${dir}/link.cmake): cmake --build ${from}")
  endif()
  include(${dir}/recipe.cmake)
  include(${dir}/link.cmake)
  if(NOT PHYSARUM_LIBRARIES_VERSION STREQUAL PROJECT_VERSION)
    message(FATAL_ERROR "physarum: the libraries of ${from} are version ${PHYSARUM_LIBRARIES_VERSION}, "
                        "this source is ${PROJECT_VERSION}: build them from this source")
  endif()
  set(includes "")
  foreach(path IN LISTS PHYSARUM_LIBRARIES_INCLUDES)
    _physarum_libraries_path(path "${path}")
    # Headers of packages this machine lacks (CUDA's, stb's) are the libraries' own business.
    if(IS_DIRECTORY "${path}")
      list(APPEND includes "${path}")
    endif()
  endforeach()
  set(links "")
  foreach(item soname IN ZIP_LISTS PHYSARUM_RECORDED_LINK PHYSARUM_RECORDED_SONAMES)
    if(item MATCHES "^-")
      list(APPEND links "${item}")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${item}")
      set(item "${from}/${item}")
    endif()
    _physarum_libraries_path(item "${item}")
    # The same path may hold another version here (libjpeg.so is libjpeg.so.62 on Debian 12 and
    # libjpeg.so.8 on Ubuntu): the libraries were compiled against the recorded one's headers, so a
    # file whose real name is not its soname's counts as missing.
    set(here FALSE)
    if(EXISTS "${item}")
      set(here TRUE)
      if(NOT soname STREQUAL "-")
        file(REAL_PATH "${item}" real)
        get_filename_component(real "${real}" NAME)
        string(FIND "${real}" "${soname}" at)
        if(NOT at EQUAL 0)
          set(here FALSE)
        endif()
      endif()
    endif()
    if(NOT here)
      if(soname STREQUAL "-")
        message(FATAL_ERROR "physarum: the libraries of ${from} link ${item}, which is not there")
      endif()
      _physarum_libraries_find_soname(item "${item}" "${soname}")
    endif()
    list(APPEND links "${item}")
  endforeach()
  add_library(${name} INTERFACE)
  target_include_directories(${name} SYSTEM INTERFACE ${includes})
  target_compile_definitions(${name} INTERFACE ${PHYSARUM_LIBRARIES_DEFINITIONS})
  target_link_libraries(${name} INTERFACE ${links})
  # The compiler launcher (ccache) of the libraries' build, when this machine has it.
  if(PHYSARUM_LIBRARIES_LAUNCHER AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    list(GET PHYSARUM_LIBRARIES_LAUNCHER 0 launcher)
    find_program(PHYSARUM_LIBRARIES_LAUNCHER_PROGRAM ${launcher})
    if(PHYSARUM_LIBRARIES_LAUNCHER_PROGRAM)
      set(CMAKE_CXX_COMPILER_LAUNCHER ${PHYSARUM_LIBRARIES_LAUNCHER} PARENT_SCOPE)
    endif()
  endif()
  set(PHYSARUM_LIBRARIES_STAGE ${dir}/stage PARENT_SCOPE)
  message(STATUS "physarum: the Python module alone, against the libraries of ${from}")
endfunction()
