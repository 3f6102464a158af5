# netsched-mpi: `mpirun -np N netsched-mpi sweep ...` spreads a sweep's
# topologies over MPI ranks, rank 0 writing the rows (mpi/netsched_mpi.c,
# docs/sweeps.md). Built only when an MPI C library is found (Debian:
# libopenmpi-dev); without one everything else builds as before.
#
# It links the core library only: SimGrid's library defines the MPI
# functions itself (SMPI), so linking the simulator too would shadow the
# real MPI's; netsched-mpi therefore computes metrics, not simulations.
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  # The sweep command is the core's (analysis/sweep_command_internal.h), run with
  # the MPI ranks as its executor: no file of cli/ is compiled again.
  add_executable(netsched-mpi ${PROJECT_SOURCE_DIR}/mpi/netsched_mpi.c)
  target_link_libraries(netsched-mpi PRIVATE netsched_core MPI::MPI_C)
  message(STATUS "MPI ${MPI_C_VERSION} found: building netsched-mpi")

  # The routine runtime (mpi/runtime/ns_routine.h, docs/generate.md): runs
  # the routine tables `netsched generate` writes, over MPI point-to-point.
  # C and MPI only (no GLib), so that libnetsched-mpi links it and every
  # generated C routine carries a copy of it.
  add_library(netsched_routine STATIC ${PROJECT_SOURCE_DIR}/mpi/runtime/ns_routine.c)
  target_include_directories(netsched_routine PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(netsched_routine PUBLIC MPI::MPI_C)
  set_target_properties(netsched_routine PROPERTIES POSITION_INDEPENDENT_CODE ON)
  include(${PROJECT_SOURCE_DIR}/cmake/MpiLib.cmake)
else()
  message(STATUS "no MPI C library: netsched-mpi is not built (libopenmpi-dev provides one)")
endif()
