# Loaded by build-engine.sh as llama.cpp's project include (CMAKE_PROJECT_llama.cpp_INCLUDE), so
# the vendored sources and CMake files stay exactly as the sdist ships them. It shortens the
# compile, the critical path of a first `demo:real` (docs/real-engine.md "The first run, compiled
# faster"), in two ways:
#
# - Unity builds for the libraries whose units mostly parse the same large headers again
#   (nlohmann/json, cpp-httplib, the chat parsers): each target's sources are compiled as a few
#   large units. llama.cpp does this itself for its model sources (src/CMakeLists.txt); the
#   compute kernels (ggml) are left as they are, so the code that does the arithmetic is compiled
#   exactly as before.
# - `-O0` for mtmd, the multimodal library: llama-server links it, but it runs only with
#   --mmproj, which no gate file here passes.
#
# Files that cannot share a unit stay out of the batches: common/json.cpp specializes
# common_json::get after another unit's use has instantiated it; common/jinja/*.cpp each define
# their own FILENAME macro for the log lines; tools/mtmd/mtmd-helper*.cpp refuse (#error) to be
# compiled beside mtmd's internal headers. set_target_properties fails on a target that does not
# exist, so a new llama.cpp whose targets are named otherwise stops the build here, loudly.
function(helm_gate_build_speed)
  set_target_properties(llama-common mtmd server-context llama-server-impl PROPERTIES UNITY_BUILD ON)
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
