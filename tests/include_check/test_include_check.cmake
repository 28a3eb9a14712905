# The include check (cmake/include_check.cmake) on two fixtures: a window/ file that includes cli/ is
# refused with its file, line and include named; one that stays within its dependencies passes.
# cmake -DSOURCE_DIR=<repository> -P test_include_check.cmake
cmake_minimum_required(VERSION 3.25)
set(script ${SOURCE_DIR}/cmake/include_check.cmake)
set(fixtures ${SOURCE_DIR}/tests/include_check/window)

function(check file out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -DFOLDER=window -DALLOWED=sim,render,run -DFILES=${file} -P ${script}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()

check(${fixtures}/upward.cpp rc text)
if(rc EQUAL 0)
  message(FATAL_ERROR "an include of cli/ from window/ was accepted:\n${text}")
endif()
string(REGEX REPLACE "[ \n]+" " " text "${text}")
if(NOT text MATCHES "upward\\.cpp:4: includes \"cli/commands\\.hpp\", but window/ may include only window, sim, render, run")
  message(FATAL_ERROR "the refusal does not name the file, line and include:\n${text}")
endif()

check(${fixtures}/layered.cpp rc text)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a file within its dependencies was refused:\n${text}")
endif()
message(STATUS "include check: refuses window/ -> cli/, accepts window/ -> run/, sim/")
