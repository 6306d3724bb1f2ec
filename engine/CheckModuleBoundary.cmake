# ctest engine_module_boundaries: one-line probes compiled with the modules' include roots
# (engine/CMakeLists.txt). io/ProjectYaml.h compiles with io's root (the header is real), a
# search header compiles with search's root, and io/ProjectYaml.h does not compile with
# search's root because search does not depend on io: the header is not found.
foreach(var CXX SEARCH_ROOT IO_ROOT WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckModuleBoundary.cmake needs -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR})

function(probe name root include result_var output_var)
  file(WRITE ${WORK_DIR}/${name}.cpp "#include \"${include}\"\n")
  execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -I${root} ${WORK_DIR}/${name}.cpp
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${result_var} ${result} PARENT_SCOPE)
  set(${output_var} "${out}" PARENT_SCOPE)
endfunction()

foreach(allowed IN ITEMS "io|${IO_ROOT}|io/ProjectYaml.h" "search|${SEARCH_ROOT}|search/NetworkSearch.h")
  string(REPLACE "|" ";" allowed "${allowed}")
  list(GET allowed 0 module)
  list(GET allowed 1 root)
  list(GET allowed 2 header)
  probe(${module}_own ${root} ${header} result output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${header} does not compile with ${module}'s include root:\n${output}")
  endif()
endforeach()

probe(search_to_io ${SEARCH_ROOT} "io/ProjectYaml.h" result output)
if(result EQUAL 0)
  message(FATAL_ERROR "io/ is reachable from search's include root: the module boundary is not enforced")
endif()
if(NOT output MATCHES "io/ProjectYaml.h: No such file")
  message(FATAL_ERROR "the search -> io probe failed for another reason than a missing header:\n${output}")
endif()
message(STATUS "search's include root compiles search/ and does not reach io/")
