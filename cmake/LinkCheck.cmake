# The layering check: platforms <- sched <- analysis <- sim (docs/architecture.md),
# and inside platforms/ and sched/ part by part (CMakeLists.txt, netsched_part).
#
# link_check_STAGE links EVERY object of one stage (--whole-archive) with
# only the stages below it and the outside libraries: a reference from a
# stage to a symbol of a higher stage (sched calling analysis, analysis
# calling sim, ...) is an undefined reference, and the build fails naming
# the object and the symbol. Built by default; there is nothing to run.
function(netsched_link_check stage)
  set(target link_check_${stage})
  add_executable(${target} ${PROJECT_SOURCE_DIR}/tests/link_check/main.c)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/link_check)
  # The stage's own dependencies (PUBLIC: the stages below and the outside
  # libraries) follow the --no-whole-archive, so only this stage is whole.
  target_link_libraries(${target} PRIVATE
    "-Wl,--whole-archive" netsched_${stage} "-Wl,--no-whole-archive" ${ARGN})
endfunction()

# Every part of the lower stages, each with only the parts below it.
netsched_link_check(platforms_model ${NETSCHED_CORE_DEPENDENCIES})
netsched_link_check(platforms_routing netsched_platforms_model)
netsched_link_check(platforms_gen netsched_platforms_routing)
netsched_link_check(platforms_io netsched_platforms_gen)
netsched_link_check(sched_ir netsched_platforms)
netsched_link_check(sched_io netsched_sched_ir)
netsched_link_check(sched_bound netsched_sched_ir)
netsched_link_check(sched_verify netsched_sched_io netsched_sched_bound)
netsched_link_check(sched_planners netsched_sched_verify)
netsched_link_check(sched_lower netsched_sched_verify)
netsched_link_check(analysis netsched_sched)
if(NETSCHED_SIMULATOR)
  netsched_link_check(sim netsched_analysis PkgConfig::SIMGRID)
endif()
