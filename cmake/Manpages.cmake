# Man pages: netsched.1 and netsched-COMMAND.1 for every command of the
# netsched built here (`netsched --list-commands`: NAME<TAB>SUMMARY), made by
# help2man from the same text as --help, at build time into man/ of the
# build directory, and installed to MANDIR/man1 (cmake/Install.cmake).
# Without help2man (Debian: help2man) there are no man pages, and nothing
# fails.
find_program(HELP2MAN help2man)
set(NETSCHED_MAN_DIR ${PROJECT_BINARY_DIR}/man)
if(NOT HELP2MAN)
  message(STATUS "help2man not found: no man pages (scripts/install-deps.sh installs it)")
elseif(CMAKE_CROSSCOMPILING)
  message(STATUS "cross-compiling: no man pages (help2man runs netsched --help)")
  set(HELP2MAN "")
else()
  message(STATUS "help2man found: man pages in ${NETSCHED_MAN_DIR}")
  add_custom_command(
    OUTPUT ${NETSCHED_MAN_DIR}/netsched.1
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            ${CMAKE_COMMAND} -DNETSCHED=$<TARGET_FILE:netsched> -DHELP2MAN=${HELP2MAN}
                             -DOUT=${NETSCHED_MAN_DIR} -DVERSION=${PROJECT_VERSION}
                             -P ${PROJECT_SOURCE_DIR}/cmake/GenerateManpages.cmake
    DEPENDS netsched ${PROJECT_SOURCE_DIR}/cmake/GenerateManpages.cmake
    COMMENT "Generating man pages with help2man"
    VERBATIM)
  add_custom_target(manpages ALL DEPENDS ${NETSCHED_MAN_DIR}/netsched.1)
endif()

# man3: one page per documented function of the installed headers, from its
# doc block (scripts/apidoc.py, docs/api.md), at build time into man3/ of
# the build directory, installed to MANDIR/man3. Without python3 there are
# none, and nothing fails.
find_package(Python3 COMPONENTS Interpreter)
set(NETSCHED_MAN3_DIR ${PROJECT_BINARY_DIR}/man3)
if(Python3_Interpreter_FOUND)
  file(GLOB_RECURSE NETSCHED_API_SOURCES CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/platforms/*.[ch] ${PROJECT_SOURCE_DIR}/sched/*.[ch]
       ${PROJECT_SOURCE_DIR}/analysis/*.[ch])
  add_custom_command(
    OUTPUT ${NETSCHED_MAN3_DIR}/.stamp
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/apidoc.py man
            ${PROJECT_SOURCE_DIR} ${NETSCHED_MAN3_DIR} ${PROJECT_VERSION}
    COMMAND ${CMAKE_COMMAND} -E touch ${NETSCHED_MAN3_DIR}/.stamp
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/apidoc.py ${NETSCHED_API_SOURCES}
    COMMENT "Generating man3 pages from the doc blocks"
    VERBATIM)
  add_custom_target(man3pages ALL DEPENDS ${NETSCHED_MAN3_DIR}/.stamp)
else()
  message(STATUS "python3 not found: no man3 pages, no API doc check")
endif()
