# The build's floating-point guarantees, checked by compiling: rule.hpp must refuse fast-math (the
# #error names it) and compile without it; the CMake flag check must refuse --use_fast_math and the
# like and accept ordinary flags. PASS_REGULAR_EXPRESSION looks for the refusal's own words, so a
# compile that fails for another reason does not count as a refusal.
set(_rule_probe ${CMAKE_CURRENT_SOURCE_DIR}/guards/includes_rule.cpp)
set(_refusal "physarum: fast-math")
set(_cxx_probe ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/sim/include ${_rule_probe})

add_test(NAME BuildGuard.RuleHeaderCompilesWithoutFastMath COMMAND ${_cxx_probe} -Wall -Werror -ffp-contract=off)
foreach(flag -ffast-math -Ofast -ffinite-math-only)
  string(REGEX REPLACE "^-+" "" _name "${flag}")
  add_test(NAME BuildGuard.RuleHeaderRefuses.${_name} COMMAND ${_cxx_probe} ${flag})
  set_tests_properties(BuildGuard.RuleHeaderRefuses.${_name} PROPERTIES PASS_REGULAR_EXPRESSION "${_refusal}")
endforeach()
if(PHYSARUM_HAS_CUDA)
  # The host half of a .cu file is compiled by the host compiler, which sees -Xcompiler flags.
  set(_cu_probe ${CMAKE_CURRENT_BINARY_DIR}/guards/includes_rule.cu)
  configure_file(${_rule_probe} ${_cu_probe} COPYONLY)
  add_test(NAME BuildGuard.RuleHeaderRefusesNvccHostFastMath
           COMMAND ${CMAKE_CUDA_COMPILER} -std=c++20 -I${PROJECT_SOURCE_DIR}/sim/include -Xcompiler=-ffast-math
                   -c ${_cu_probe} -o ${CMAKE_CURRENT_BINARY_DIR}/guards/includes_rule.o)
  set_tests_properties(BuildGuard.RuleHeaderRefusesNvccHostFastMath PROPERTIES PASS_REGULAR_EXPRESSION "${_refusal}")
endif()

# cmake is looked for when the test runs (the configure-time path may not exist where the tests run);
# none at all: the test is skipped and says so.
set(_flag_check ${PROJECT_SOURCE_DIR}/sim/floating_point_flags.cmake)
set(_cmake /bin/sh ${CMAKE_CURRENT_SOURCE_DIR}/guards/cmake_at_test_time.sh ${CMAKE_COMMAND})
add_test(NAME BuildGuard.FlagCheckAcceptsOrdinaryFlags
         COMMAND ${_cmake} "-DPHYSARUM_FP_FLAGS=-O2 -g -fmad=false -ftz=false -Xcompiler=-Wall" -P ${_flag_check})
set_tests_properties(BuildGuard.FlagCheckAcceptsOrdinaryFlags PROPERTIES SKIP_RETURN_CODE 77)
set(_i 0)
foreach(flags "--use_fast_math" "-O3 -use_fast_math" "-ftz=true" "-Xcompiler=-ffast-math,-Wall" "-O2 -Ofast"
        "-prec-div=false" "-funsafe-math-optimizations")
  math(EXPR _i "${_i} + 1")
  add_test(NAME BuildGuard.FlagCheckRefuses.${_i} COMMAND ${_cmake} "-DPHYSARUM_FP_FLAGS=${flags}" -P ${_flag_check})
  set_tests_properties(BuildGuard.FlagCheckRefuses.${_i} PROPERTIES PASS_REGULAR_EXPRESSION "bit-identity"
                                                                    SKIP_REGULAR_EXPRESSION "physarum test: skipped")
endforeach()

# Compiler and CMake probes: quick, and no program, window or GPU is involved.
get_property(_guards DIRECTORY PROPERTY TESTS)
list(FILTER _guards INCLUDE REGEX "^BuildGuard\\.")
set_tests_properties(${_guards} PROPERTIES LABELS unit)
if(PHYSARUM_HAS_CUDA)
  set_tests_properties(BuildGuard.RuleHeaderRefusesNvccHostFastMath PROPERTIES LABELS gpu)
endif()

# test_subnormals.cpp sets the flush mode of OpenMP's worker threads from a parallel region.
find_package(OpenMP REQUIRED)
target_link_libraries(physarum_tests PRIVATE OpenMP::OpenMP_CXX)

# test_cuda.cpp checks sim/cuda's reading of cudaEventQuery (event_query.hpp) directly.
if(PHYSARUM_HAS_CUDA)
  target_include_directories(physarum_tests PRIVATE ${PROJECT_SOURCE_DIR}/sim/cuda)
endif()

# The layering check (cmake/include_check.cmake) refuses an upward include, naming file:line and the
# include, and accepts a file within its declared dependencies (two small fixtures).
add_test(NAME BuildGuard.IncludeCheckRefusesUpwardIncludes
         COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/include_check/test_include_check.cmake)
