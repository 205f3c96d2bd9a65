# Two configures of the sources as people start them, each followed by what `cmake --build`
# would build there (the inputs of Ninja's `all`: nothing compiles):
#  1. plain, `cmake -S . -B build`, with the packages only the tests use hidden from CMake:
#     the library and the program, no test or benchmark program;
#  2. a consumer's add_subdirectory() of the sources beside its own program: the library's
#     stages and that program, nothing else.
# Called by CTest with -DSOURCE_DIR= -DWORK=.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
set(stages base noise field measure grid mesh edit world store session io bake nav)

# Appends to `found` (in the caller) the names of what the phony target TARGET of the Ninja
# tree BUILD builds, following the folders' own `all` targets.
function(all_outputs build target)
  execute_process(COMMAND ninja -C "${build}" -t query "${target}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "ninja -t query ${target} failed in ${build}")
  endif()
  # The inputs: the lines between "input: phony" and "outputs:", four spaces in.
  string(REGEX REPLACE ".*input: phony\n(.*)  outputs:.*" "\\1" inputs "${out}")
  string(REGEX MATCHALL "    [^\n]+" lines "${inputs}")
  foreach(line ${lines})
    string(STRIP "${line}" path)
    if(path MATCHES "/all$")
      all_outputs("${build}" "${path}")
    else()
      get_filename_component(name "${path}" NAME)
      list(APPEND found ${name})
    endif()
  endforeach()
  set(found ${found} PARENT_SCOPE)
endfunction()

# Configures SOURCE into BUILD with ARGN; sets `linked` in the caller to the names of what
# `cmake --build` would build there, sorted.
function(dry_run source build)
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${source}" -B "${build}" -G Ninja ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "configuring ${source} failed:\n${out}\n${err}")
  endif()
  set(found)
  all_outputs("${build}" all)
  list(SORT found)
  set(linked ${found} PARENT_SCOPE)
endfunction()

# 1. Plain: GoogleTest and Google Benchmark hidden (libnoise has no CMake package: the
# benchmarks' find_library would be the first to stop a configure that reached it).
dry_run("${SOURCE_DIR}" "${WORK}/plain" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)
message(STATUS "plain: ${linked}")
foreach(stage ${stages})
  if(NOT "libisoterra_${stage}.a" IN_LIST linked)
    message(FATAL_ERROR "a plain build does not link the ${stage} stage: ${linked}")
  endif()
endforeach()
if(NOT "isoterra" IN_LIST linked)
  message(FATAL_ERROR "a plain build does not link the program: ${linked}")
endif()
foreach(name ${linked})
  if(name MATCHES "^(test_|isoterra_bench|isoterra_python_peer)")
    message(FATAL_ERROR "a plain build links ${name}, a test or benchmark program: ${linked}")
  endif()
endforeach()

# 2. A consumer's add_subdirectory(), its program linking isoterra::isoterra.
file(WRITE "${WORK}/consumer/CMakeLists.txt" "cmake_minimum_required(VERSION 3.25)
project(subdirectory_consumer LANGUAGES CXX)
add_subdirectory(\"${SOURCE_DIR}\" isoterra)
add_executable(consumer \"${SOURCE_DIR}/examples/consumer/main.cpp\")
target_link_libraries(consumer PRIVATE isoterra::isoterra)
")
dry_run("${WORK}/consumer" "${WORK}/consumer-build" -DCMAKE_BUILD_TYPE=Release)
set(want consumer)
foreach(stage ${stages})
  list(APPEND want "libisoterra_${stage}.a")
endforeach()
list(SORT want)
message(STATUS "add_subdirectory: ${linked}")
if(NOT linked STREQUAL want)
  message(FATAL_ERROR "a consumer's add_subdirectory() builds ${linked}, not just the library and its program: ${want}")
endif()
# The library's headers are C++20: the consumer, which asks for no standard, is compiled so.
execute_process(COMMAND ninja -C "${WORK}/consumer-build" -t commands consumer OUTPUT_VARIABLE out)
string(REGEX MATCH "[^\n]*-std=[^\n]*examples/consumer/main.cpp[^\n]*" compile "${out}")
if(NOT compile MATCHES "-std=(c|gnu)\\+\\+20 ")
  message(FATAL_ERROR "the consumer's main.cpp is not compiled as C++20: ${compile}")
endif()
