# Loaded by build-engine.sh as llama.cpp's project include (CMAKE_PROJECT_llama.cpp_INCLUDE), so
# the vendored sources and CMake files stay exactly as the sdist ships them. It shortens the
# compile, the critical path of a first `demo:real` (docs/real-engine.md "The first run, compiled
# faster"), by compiling mtmd, the multimodal library, cheaply: llama-server links it, but it runs
# only with --mmproj, which no gate file here passes. Its sources are compiled at -O0 and as a few
# large units (a unity build: its many small files mostly parse the same headers again), 113 CPU
# seconds down to 28 on the 2-core machine.
#
# Everything else, the code the servers do run, is compiled exactly as upstream builds it. A
# unity build of common/ and the server's libraries too saved 80 more CPU seconds, but the server
# it made delivered 4 to 6 % fewer output tokens per second than the plain build (four
# interleaved runs of the load half, F16 on both sides), so it is not done here.
#
# mtmd-helper*.cpp stay out of the batches: they refuse (#error) to be compiled beside mtmd's
# internal headers. set_target_properties fails on a target that does not exist, so a llama.cpp
# whose multimodal library is named otherwise stops the build here, loudly.
function(helm_gate_build_speed)
  set_target_properties(mtmd PROPERTIES UNITY_BUILD ON)
  target_compile_options(mtmd PRIVATE -O0)
  file(GLOB apart "${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper*.cpp")
  set_source_files_properties(${apart} DIRECTORY "${CMAKE_SOURCE_DIR}/tools/mtmd"
    PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
# Deferred to the end of the top-level CMakeLists.txt, when every target exists.
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL helm_gate_build_speed)
