# Runs `nestor-cli vta run` on one defective vector of tests/data/vta/bad/ and checks the exit
# status and the report against its MANIFEST.txt line ("file exit-status regex").
# Inputs: CLI (nestor-cli), DIR (the bad/ folder), NAME (file name).
file(STRINGS ${DIR}/MANIFEST.txt lines REGEX "^${NAME} ")
list(LENGTH lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${NAME}: expected one MANIFEST.txt line, found ${count}")
endif()
string(REGEX MATCH "^([^ ]+) ([0-9]+) (.*)$" parsed "${lines}")
set(expected_exit ${CMAKE_MATCH_2})
set(pattern "${CMAKE_MATCH_3}")
execute_process(COMMAND ${CLI} vta run ${DIR}/${NAME} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 60)
string(REPLACE "\n" " " report "${out}${err}")
if(NOT "${rc}" STREQUAL "${expected_exit}")
  message(FATAL_ERROR "${NAME}: exit status ${rc}, expected ${expected_exit}\n${out}${err}")
endif()
if(NOT report MATCHES "${pattern}")
  message(FATAL_ERROR "${NAME}: the report does not match '${pattern}':\n${out}${err}")
endif()
message(STATUS "${NAME}: exit ${rc} and a located report, as expected")
