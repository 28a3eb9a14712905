# Layering, enforced when the build is configured and again whenever a checked file changes: every
# `#include "X/..."` in a folder's files must name the folder itself or a folder it declares as a
# dependency. X is checked only when it is one of the project's folders (PHYSARUM_FOLDERS), so
# system and third-party headers pass.
#
# As a script: cmake -DFOLDER=f -DALLOWED=a,b (-DFILES_FROM=list.txt | -DFILES=x,y) [-DSTAMP=file]
#   -P include_check.cmake
if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.25)
endif()
set(PHYSARUM_FOLDERS sim render run cli window video export analysis sensitivity atlas report headless bench
                     export_pipeline render_pipeline common)

# Fails (FATAL_ERROR naming file:line and the include) at the first include of a folder that
# `folder` may not use.
function(physarum_check_includes folder allowed)
  foreach(file IN LISTS ARGN)
    file(STRINGS ${file} lines)
    set(line_number 0)
    foreach(line IN LISTS lines)
      math(EXPR line_number "${line_number} + 1")
      if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([A-Za-z0-9_]+)/[^\"]*\"")
        continue()
      endif()
      set(target_folder ${CMAKE_MATCH_1})
      string(REGEX MATCH "\"[^\"]*\"" include_text "${line}")
      if(target_folder IN_LIST PHYSARUM_FOLDERS AND NOT target_folder STREQUAL folder
         AND NOT target_folder IN_LIST allowed)
        string(REPLACE ";" ", " allowed_text "${folder};${allowed}")
        message(FATAL_ERROR "${file}:${line_number}: includes ${include_text}, but ${folder}/ may include "
                            "only ${allowed_text} (declare the dependency in its CMakeLists.txt, or move the code)")
      endif()
    endforeach()
  endforeach()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED FOLDER)
  if(DEFINED FILES_FROM)
    file(STRINGS ${FILES_FROM} _files)
  else()
    string(REPLACE "," ";" _files "${FILES}")
  endif()
  string(REPLACE "," ";" _allowed "${ALLOWED}")
  physarum_check_includes(${FOLDER} "${_allowed}" ${_files})
  if(DEFINED STAMP)
    file(TOUCH ${STAMP})
  endif()
endif()
