# Writes physarum.1 with help2man: the top-level --help, plus each subcommand's --help as its own
# section, plus the hand-written sections of manpage.h2m. Run by the build (app/CMakeLists.txt).
# Installed is physarum.1.gz: Debian's policy wants man pages compressed, and man reads them so.
set(sections "")
foreach(sub run render bench presets export sensitivity)
  execute_process(COMMAND ${EXE} ${sub} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "manpage: '${EXE} ${sub} --help' failed")
  endif()
  # roff: backslashes are written \e, and a line may not start with '.' or a quote.
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(APPEND sections "[COMMAND: physarum ${sub}]\n.nf\n${text}.fi\n\n")
endforeach()
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(WRITE ${OUT}.h2m "${sections}")
execute_process(
  COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${VERSION}
          --name=grows\ a\ Physarum\ slime-mould\ transport\ network\ on\ the\ GPU
          --include=${OUT}.h2m --include=${EXTRA} --output=${OUT} ${EXE}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "manpage: help2man failed")
endif()
# -n: no name or time stamp inside, so the same page makes the same bytes.
execute_process(COMMAND gzip -9nc ${OUT} OUTPUT_FILE ${OUT}.gz RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "manpage: gzip failed")
endif()
