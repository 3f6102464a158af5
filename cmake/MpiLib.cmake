# libnetsched-mpi (docs/mpi-library.md): MPI_Alltoall, MPI_Allgather and
# MPI_Bcast through the MPI profiling interface, running routine tables
# made by `netsched generate` (mpi/lib/ over the runtime netsched_routine,
# mpi/runtime/). Included by cmake/Mpi.cmake when an MPI C library is found.
#
# A shared library that applications link (-lnetsched-mpi before the MPI
# library, which mpicc puts last) or preload (LD_PRELOAD); it depends on
# MPI and libc only — no GLib, nothing of netsched's core — so it loads
# into any MPI program. Its own sources are compiled with the project's
# warnings; in a sanitized build it is sanitized too and the tests preload
# the sanitizer runtime first (tests/cli_mpi_lib.sh).
file(GLOB NETSCHED_MPI_LIB_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/mpi/lib/*.c)
find_package(Threads REQUIRED)
add_library(netsched_mpi_lib SHARED ${NETSCHED_MPI_LIB_SOURCES})
set_target_properties(netsched_mpi_lib PROPERTIES OUTPUT_NAME netsched-mpi
                      VERSION ${PROJECT_VERSION} SOVERSION 0 C_VISIBILITY_PRESET hidden)
target_include_directories(netsched_mpi_lib PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(netsched_mpi_lib PRIVATE netsched_routine MPI::MPI_C Threads::Threads)
# Only MPI_Alltoall, MPI_Allgather and MPI_Bcast are exported: the
# runtime's nsr_* functions, linked in from the static netsched_routine,
# stay private (an application may carry its own generated routine).
target_link_options(netsched_mpi_lib PRIVATE -Wl,--exclude-libs,ALL)
if(NOT NETSCHED_SANITIZE)
  target_link_options(netsched_mpi_lib PRIVATE -Wl,--no-undefined)
endif()
install(TARGETS netsched_mpi_lib LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
message(STATUS "building libnetsched-mpi")
