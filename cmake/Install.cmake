# `cmake --install BUILD [--prefix DIR]` (docs/install.md):
#   BINDIR/netsched (and netsched-mpi when built)
#   LIBEXECDIR/netsched/netsched-replay         the simulator's child process
#   LIBDIR/libnetsched.so.0                     platforms + sched + analysis: the verifier's half
#   LIBDIR/libnetsched-mpi.so.0                 the PMPI library, when MPI is found (cmake/MpiLib.cmake)
#   LIBDIR/pkgconfig/netsched.pc
#   INCLUDEDIR/netsched/{platforms,sched,analysis}/*.h   public headers (-I INCLUDEDIR/netsched)
#   MANDIR/man3/ns_*.3                          their functions (when python3 was found)
#   DATADIR/netsched/calibrations/              bundled calibrations
#   DATADIR/bash-completion/completions/netsched
#   MANDIR/man1/netsched.1, netsched-COMMAND.1  (when help2man was found)

# libnetsched: the objects of the three core stages as one shared library,
# for programs that plan and verify (an MPI library's test suite). The
# outside libraries it needs are its own dependencies; the link fails on any
# reference it does not resolve (not checkable with sanitizers, whose
# runtime the program brings).
set(NETSCHED_SHARED_OBJECTS "")
foreach(part ${NETSCHED_PARTS})
  list(APPEND NETSCHED_SHARED_OBJECTS $<TARGET_OBJECTS:${part}>)
endforeach()
add_library(netsched_shared SHARED ${NETSCHED_SHARED_OBJECTS})
set_target_properties(netsched_shared PROPERTIES OUTPUT_NAME netsched
                      VERSION ${PROJECT_VERSION} SOVERSION 0)
target_link_libraries(netsched_shared PRIVATE ${NETSCHED_CORE_DEPENDENCIES})
target_include_directories(netsched_shared INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/netsched>)
if(NOT NETSCHED_SANITIZE)
  target_link_options(netsched_shared PRIVATE -Wl,--no-undefined)
endif()

install(TARGETS netsched RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET netsched-mpi)
  install(TARGETS netsched-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(NETSCHED_SIMULATOR)
  install(TARGETS netsched-replay RUNTIME DESTINATION ${NETSCHED_REPLAY_INSTALL_DIR})
endif()
if(TARGET netsched-ns3)
  install(TARGETS netsched-ns3 RUNTIME DESTINATION ${NETSCHED_REPLAY_INSTALL_DIR})
endif()
install(TARGETS netsched_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The public headers: every header of the three stages but those named
# *_internal.h (helpers of one part, and the engines only netsched's own
# programs use: CONTRIBUTING.md), plus sched/planners/planners.def, which
# sched/planners/registry.h includes; by stage, so that the headers' own
# "platforms/model/topology.h" includes work with -I INCLUDEDIR/netsched.
# tests/cli_install.sh checks each compiles alone and none is internal;
# check_api_docs that each of their functions is documented (docs/api.md).
foreach(stage platforms sched analysis)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${stage}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/netsched/${stage}
          FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*_internal.h" EXCLUDE)
endforeach()

# pkg-config: relocatable (prefix found from the .pc file's own place), so
# `cmake --install --prefix DIR` needs no reconfiguration. glib-2.0 and
# json-glib-1.0 are in Requires: the public headers include <glib.h> and
# <json-glib/json-glib.h> (analysis/bounds_tamwang.h).
file(RELATIVE_PATH NETSCHED_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" NETSCHED_PC_TO_PREFIX "${NETSCHED_PC_TO_PREFIX}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(NETSCHED_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(NETSCHED_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/netsched.pc.in ${PROJECT_BINARY_DIR}/netsched.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/netsched.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${PROJECT_SOURCE_DIR}/completion/netsched.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME netsched)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/calibrations/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/netsched/calibrations)
if(HELP2MAN)
  install(DIRECTORY ${NETSCHED_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1")
endif()
if(Python3_Interpreter_FOUND)
  install(DIRECTORY ${NETSCHED_MAN3_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man3
          FILES_MATCHING PATTERN "*.3")
endif()
