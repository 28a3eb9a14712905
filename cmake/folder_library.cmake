# One static library per folder with its allowed dependencies declared:
#   physarum_folder_library(<target> FOLDER <name> DIR <root> [INCLUDE_DIR <dir>]
#                           SOURCES <files...> DEPENDS <folders...>)
# Every source and header under DIR is checked (cmake/include_check.cmake) at configure time and,
# through a stamp, at build time whenever one changes, so a wrong include fails the build.
include(${CMAKE_CURRENT_LIST_DIR}/include_check.cmake)
set(PHYSARUM_INCLUDE_CHECK_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/include_check.cmake)

function(physarum_folder_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "FOLDER;DIR;INCLUDE_DIR" "SOURCES;DEPENDS")
  file(GLOB_RECURSE checked CONFIGURE_DEPENDS ${arg_DIR}/*.cpp ${arg_DIR}/*.hpp ${arg_DIR}/*.h ${arg_DIR}/*.cu)
  physarum_check_includes(${arg_FOLDER} "${arg_DEPENDS}" ${checked})
  set(list_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_checked_files.txt)
  string(REPLACE ";" "\n" checked_lines "${checked}")
  file(WRITE ${list_file} "${checked_lines}\n")
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${target}_includes.stamp)
  string(REPLACE ";" "," allowed_arg "${arg_DEPENDS}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DFOLDER=${arg_FOLDER} -DALLOWED=${allowed_arg} -DFILES_FROM=${list_file}
            -DSTAMP=${stamp} -P ${PHYSARUM_INCLUDE_CHECK_SCRIPT}
    DEPENDS ${checked} ${PHYSARUM_INCLUDE_CHECK_SCRIPT}
    COMMENT "Checking the includes of ${arg_FOLDER}/" VERBATIM)
  add_custom_target(${target}_includes DEPENDS ${stamp})
  add_library(${target} STATIC ${arg_SOURCES})
  add_dependencies(${target} ${target}_includes)
  if(arg_INCLUDE_DIR)
    target_include_directories(${target} PUBLIC ${arg_INCLUDE_DIR})
  endif()
  target_link_libraries(${target} PUBLIC physarum_flags)
endfunction()
