# Loaded by build-engine.sh as llama.cpp's project include (CMAKE_PROJECT_llama.cpp_INCLUDE), so
# the vendored sources and CMake files stay exactly as the sdist ships them. It shortens the
# compile, the critical path of a first `demo:real` (docs/real-engine.md "The first run, compiled
# faster"), in two ways:
#
# - Unity builds for common/ and mtmd: each library's sources compiled as a few large units, so
#   the headers that most of their small files parse again (nlohmann/json, the chat parsers) are
#   parsed once per batch. llama.cpp does the same for its own model sources (src/CMakeLists.txt).
# - -O0 for mtmd, the multimodal library: llama-server links it, but it runs only with --mmproj,
#   which no gate file here passes.
#
# With both, the three programs took 666 CPU seconds instead of 757 on the 2-core machine. The
# compute kernels (ggml), the llama library and the server's own libraries are compiled as
# upstream builds them: a unity build of the server's libraries as well saved 30 CPU seconds
# more, but that server delivered 3 to 7 % fewer output tokens per second than the plain build
# in all four interleaved load runs, F16 on both sides.
#
# Files that cannot share a unit stay out of the batches: common/json.cpp specializes
# common_json::get after another file's use has instantiated it; common/jinja/*.cpp each define
# their own FILENAME macro for their log lines; tools/mtmd/mtmd-helper*.cpp refuse (#error) to be
# compiled beside mtmd's internal headers. set_target_properties fails on a target that does not
# exist, so a llama.cpp whose libraries are named otherwise stops the build here, loudly.
function(helm_gate_build_speed)
  set_target_properties(llama-common mtmd PROPERTIES UNITY_BUILD ON)
  target_compile_options(mtmd PRIVATE -O0)
  file(GLOB apart
    "${CMAKE_SOURCE_DIR}/common/json.cpp"
    "${CMAKE_SOURCE_DIR}/common/jinja/*.cpp"
    "${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper*.cpp")
  set_source_files_properties(${apart}
    DIRECTORY "${CMAKE_SOURCE_DIR}/common" "${CMAKE_SOURCE_DIR}/tools/mtmd"
    PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
# Deferred to the end of the top-level CMakeLists.txt, when every target exists.
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL helm_gate_build_speed)
