# The model's bit-identity (docs/MODEL.md) needs correctly rounded IEEE float operations with
# subnormals kept, on the host and on the device. These flags break that, so the build refuses them.
# sim/include/sim/rule.hpp refuses the ones a compiler announces with a macro (-ffast-math); nvcc
# announces none for --use_fast_math, hence this check of the flags given to CMake.
#
# Also runs as a script, which the test suite uses to check the refusal itself:
#   cmake -DPHYSARUM_FP_FLAGS="--use_fast_math" -P sim/floating_point_flags.cmake
set(PHYSARUM_FP_BAD_FLAGS_REGEX
    "(^|[ ,=;])(-ffast-math|-Ofast|-funsafe-math-optimizations|-fassociative-math|-freciprocal-math|-ffinite-math-only|--?use_fast_math|--?ftz=true|--?fmad=true|--?prec-div=false|--?prec-sqrt=false)([ ,;]|$)")

function(physarum_check_fp_flags what flags)
  if(flags MATCHES "${PHYSARUM_FP_BAD_FLAGS_REGEX}")
    string(STRIP "${CMAKE_MATCH_2}" bad)
    message(FATAL_ERROR "physarum: ${what} contains '${bad}', which breaks the model's bit-identity "
                        "(reassociation, FMA or flushed subnormals; see docs/MODEL.md). Remove it.")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  physarum_check_fp_flags("PHYSARUM_FP_FLAGS" "${PHYSARUM_FP_FLAGS}")
  message(STATUS "physarum: floating-point flags accepted: ${PHYSARUM_FP_FLAGS}")
endif()
