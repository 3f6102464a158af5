# cmake -DNETSCHED=BIN -DHELP2MAN=PATH -DOUT=DIR -DVERSION=X.Y.Z -P GenerateManpages.cmake
# Writes DIR/netsched.1 and DIR/netsched-COMMAND.1 for each command that BIN
# lists (cmake/Manpages.cmake); the pages of commands no longer listed go.
#
# A command's --help is GLib's: "Usage:\n  CMD [OPTION…] ARGS - SUMMARY".
# help2man wants "Usage: PROGRAM ARGS" on one line for the SYNOPSIS, so the
# text is read here, that line rewritten to "Usage: netsched CMD [OPTION...]
# ARGS" (the summary becomes the first line of the description), and
# help2man reads the result through `cmake -E cat` (--help-option); the
# version comes from --version-string.
foreach(var NETSCHED HELP2MAN OUT VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "GenerateManpages.cmake: -D${var}=... is missing")
  endif()
endforeach()
set(ENV{LC_ALL} C.UTF-8)
execute_process(COMMAND ${NETSCHED} --list-commands
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR listing STREQUAL "")
  message(FATAL_ERROR "${NETSCHED} --list-commands failed (${status})")
endif()
file(MAKE_DIRECTORY ${OUT})
file(GLOB stale ${OUT}/netsched*.1 ${OUT}/*.h2m ${OUT}/*.help)
if(stale)
  file(REMOVE ${stale})
endif()

string(REPLACE "\n" ";" lines "${listing}")
set(commands "")
set(see_also "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([a-z0-9-]+)\t(.+)$")
    list(APPEND commands ${CMAKE_MATCH_1})
    set(summary_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    string(APPEND see_also ".BR netsched-${CMAKE_MATCH_1} (1),\n")
  endif()
endforeach()

function(help2man page name program)
  execute_process(COMMAND ${HELP2MAN} --no-info --section=1 --source=netsched
                          "--name=${name}" ${ARGN} --output=${OUT}/${page}.1 ${program}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "help2man for ${page} failed (${status}): ${err}")
  endif()
endfunction()

string(REGEX REPLACE ",\n$" "\n" see_also "${see_also}")
file(WRITE ${OUT}/netsched.h2m
     "[SEE ALSO]\n${see_also}.PP\nRun\n.B netsched COMMAND --help\nfor the options of a command.\n")
help2man(netsched "plans, proves and simulates collective-communication schedules on cluster interconnects"
         ${NETSCHED} --include=${OUT}/netsched.h2m)

foreach(cmd IN LISTS commands)
  execute_process(COMMAND ${NETSCHED} ${cmd} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT help MATCHES "^Usage:\n  ${cmd} ([^\n]*)\n(.*)$")
    message(FATAL_ERROR "netsched ${cmd} --help (exit ${status}) does not start with GLib's Usage:")
  endif()
  set(usage "${CMAKE_MATCH_1}")
  set(rest "${CMAKE_MATCH_2}")
  string(FIND "${usage}" " - " dash)
  set(summary "")
  if(dash GREATER 0)
    math(EXPR after "${dash} + 3")
    string(SUBSTRING "${usage}" ${after} -1 summary)
    string(SUBSTRING "${usage}" 0 ${dash} usage)
    set(summary "${summary}.\n")
  endif()
  string(REPLACE "…" "..." usage "${usage}")
  file(WRITE ${OUT}/${cmd}.help "Usage: netsched ${cmd} ${usage}\n\n${summary}${rest}")
  file(WRITE ${OUT}/netsched-${cmd}.h2m "[SEE ALSO]\n.BR netsched (1)\n")
  help2man(netsched-${cmd} "${summary_${cmd}}" ${CMAKE_COMMAND}
           "--help-option=-E cat ${OUT}/${cmd}.help"
           "--version-string=netsched-${cmd} ${VERSION}"
           --include=${OUT}/netsched-${cmd}.h2m)
endforeach()
file(GLOB scratch ${OUT}/*.h2m ${OUT}/*.help)
file(REMOVE ${scratch})
list(LENGTH commands n)
message(STATUS "man pages: netsched.1 and ${n} command pages in ${OUT}")
