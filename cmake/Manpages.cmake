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
