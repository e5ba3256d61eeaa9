# realtime_lock.cmake — included by ctest after doctest's discovered tests (TEST_INCLUDE_FILES,
# with RTPAR_TESTS_EXE set): gives the resource lock rtpar_realtime to the doctest cases that run
# real-time threads or measure time (tests/CMakeLists.txt), so that the others run in parallel
# under `ctest -j`. The lists come from the test binary itself (doctest's --source-file and
# --test-suite filters), so a new case in tests/runtime/ or in the suite "realtime" is locked
# with no edit here. If the binary cannot list them, every discovered case is locked (doctest's
# include sets rtpar_tests_TESTS before this file runs): slower, never unsafe.

# rtpar_list_cases runs the test binary with a filter; sets `out` to the names it lists, or to
# "ERROR" when it fails.
function(rtpar_list_cases out filter)
  execute_process(COMMAND "${RTPAR_TESTS_EXE}" "${filter}" --list-test-cases
                  OUTPUT_VARIABLE listing RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    set(${out} "ERROR" PARENT_SCOPE)
    return()
  endif()
  string(REPLACE ";" "\\;" listing "${listing}")
  string(REPLACE "\n" ";" lines "${listing}")
  set(names)
  foreach(line IN LISTS lines)
    # doctest frames its listing with a rule of '=' and lines beginning with "[doctest] ".
    if(line STREQUAL "" OR line MATCHES "^===" OR line MATCHES "^\\[doctest\\] ")
      continue()
    endif()
    list(APPEND names "${line}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

rtpar_list_cases(by_dir "--source-file=*/tests/runtime/*,*/tests/platform/*")
rtpar_list_cases(by_suite "--test-suite=realtime")
if(by_dir STREQUAL "ERROR" OR by_suite STREQUAL "ERROR")
  set(by_dir ${rtpar_tests_TESTS})
  set(by_suite)
endif()
foreach(name IN LISTS by_dir by_suite)
  set_tests_properties("${name}" PROPERTIES RESOURCE_LOCK rtpar_realtime)
endforeach()
