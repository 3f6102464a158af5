# libnetsched-mpi (docs/mpi-library.md): MPI_Alltoall, MPI_Allgather and
# MPI_Bcast through the MPI profiling interface, running routine tables
# made by `netsched generate` (mpi/lib/ over the runtime in mpi/runtime/).
# Included by cmake/Mpi.cmake when an MPI C library is found.
#
# A shared library that applications link (-lnetsched-mpi before the MPI
# library, which mpicc puts last) or preload (LD_PRELOAD); it depends on
# MPI and libc only — no GLib, nothing of netsched's core — so it loads
# into any MPI program. Its own sources are compiled with the project's
# warnings; in a sanitized build it is sanitized too and the tests preload
# the sanitizer runtime first (tests/cli_mpi_lib.sh).
file(GLOB NETSCHED_MPI_LIB_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/mpi/lib/*.c)
file(GLOB NETSCHED_MPI_RUNTIME_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/mpi/runtime/*.c)
if(NOT NETSCHED_MPI_RUNTIME_SOURCES)
  message(STATUS "mpi/runtime/ has no sources yet: libnetsched-mpi is not built")
  return()
endif()
find_package(Threads REQUIRED)
add_library(netsched_mpi_lib SHARED ${NETSCHED_MPI_LIB_SOURCES} ${NETSCHED_MPI_RUNTIME_SOURCES})
set_target_properties(netsched_mpi_lib PROPERTIES OUTPUT_NAME netsched-mpi
                      VERSION ${PROJECT_VERSION} SOVERSION 0 C_VISIBILITY_PRESET hidden)
target_include_directories(netsched_mpi_lib PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(netsched_mpi_lib PRIVATE MPI::MPI_C Threads::Threads)
if(NOT NETSCHED_SANITIZE)
  target_link_options(netsched_mpi_lib PRIVATE -Wl,--no-undefined)
endif()
install(TARGETS netsched_mpi_lib LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
message(STATUS "building libnetsched-mpi")
