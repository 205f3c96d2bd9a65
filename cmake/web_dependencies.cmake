# The browser build's dependencies. Emscripten sees no system libraries, so the header-only
# ones come from the system's include folder (the same versions the native build uses), and
# SQLite and zstd are compiled from the C sources their npm packages ship, pinned by
# web/package-lock.json (`npm ci --ignore-scripts` in web/ fetches them), and meshoptimizer
# from the source of the Debian package the native build links (0.18, fetched and checked
# against its hash by scripts/web.sh into build/web-sources/).
enable_language(C)
set(web_modules "${PROJECT_SOURCE_DIR}/web/node_modules")
set(sqlite_dir "${web_modules}/better-sqlite3/deps/sqlite3")
set(zstd_dir "${web_modules}/zstd-napi/deps/zstd/lib")
set(meshopt_dir "${PROJECT_SOURCE_DIR}/build/web-sources/meshoptimizer-0.18/src")
if(NOT EXISTS "${sqlite_dir}/sqlite3.c" OR NOT EXISTS "${zstd_dir}/zstd.h")
  message(FATAL_ERROR "isoterra web: SQLite and zstd sources missing; run `npm ci --ignore-scripts` in web/ (scripts/web.sh does)")
endif()
if(NOT EXISTS "${meshopt_dir}/meshoptimizer.h")
  message(FATAL_ERROR "isoterra web: meshoptimizer's source missing in ${meshopt_dir} (scripts/web.sh fetches it)")
endif()

# The library throws one-line errors that the page's calls catch. SIMD128 (every browser the
# page supports has it): the fast noise flavour's four-lane kernel runs on it with the same
# bits as the native paths (13.5 ns a point against 33 without it, on the 33^3 lattice).
add_compile_options(-fexceptions -msimd128)
add_link_options(-fexceptions)

# Only the header-only libraries, not the whole of /usr/include (its C library is not ours).
set(system_headers "${PROJECT_BINARY_DIR}/system-headers")
file(MAKE_DIRECTORY "${system_headers}")
foreach(lib glm fmt toml++ nlohmann)
  if(NOT EXISTS "/usr/include/${lib}")
    message(FATAL_ERROR "isoterra web: /usr/include/${lib} missing; install the native build's -dev packages")
  endif()
  file(CREATE_LINK "/usr/include/${lib}" "${system_headers}/${lib}" SYMBOLIC)
endforeach()
add_library(web_header_libraries INTERFACE)
target_include_directories(web_header_libraries SYSTEM INTERFACE "${system_headers}")
target_compile_definitions(web_header_libraries INTERFACE FMT_HEADER_ONLY=1)
foreach(name glm::glm fmt::fmt tomlplusplus::tomlplusplus nlohmann_json::nlohmann_json Threads::Threads)
  add_library(${name} ALIAS web_header_libraries)
endforeach()

# SQLite: one connection per page, so no threads; exclusive locking lets WAL work without
# shared memory (the world file switches to WAL).
add_library(web_sqlite STATIC "${sqlite_dir}/sqlite3.c")
target_include_directories(web_sqlite SYSTEM PUBLIC "${sqlite_dir}")
target_compile_definitions(web_sqlite PRIVATE SQLITE_THREADSAFE=0 SQLITE_DEFAULT_LOCKING_MODE=1
                           SQLITE_OMIT_LOAD_EXTENSION SQLITE_OMIT_DEPRECATED SQLITE_DQS=0)
target_compile_options(web_sqlite PRIVATE -Oz -w)
add_library(SQLite::SQLite3 ALIAS web_sqlite)

file(GLOB zstd_sources "${zstd_dir}/common/*.c" "${zstd_dir}/compress/*.c" "${zstd_dir}/decompress/*.c")
add_library(web_zstd STATIC ${zstd_sources})
target_include_directories(web_zstd SYSTEM PUBLIC "${zstd_dir}")
target_compile_definitions(web_zstd PRIVATE ZSTD_DISABLE_ASM ZSTD_MULTITHREAD=0 ZSTD_LEGACY_SUPPORT=0)
target_compile_options(web_zstd PRIVATE -O2 -w)
add_library(PkgConfig::ZSTD ALIAS web_zstd)

# The same encoder as the native build's Debian library, so the page's compressed glb has the
# program's bytes.
file(GLOB meshopt_sources "${meshopt_dir}/*.cpp")
add_library(web_meshoptimizer STATIC ${meshopt_sources})
target_include_directories(web_meshoptimizer SYSTEM PUBLIC "${meshopt_dir}")
target_compile_options(web_meshoptimizer PRIVATE -O2 -w)
add_library(meshoptimizer::meshoptimizer ALIAS web_meshoptimizer)

# heightmap nodes' PNG reader (libspng) and GDAL are not in the page: such nodes say so.
add_library(PkgConfig::SPNG ALIAS web_header_libraries)
set(ISOTERRA_WITH_GDAL OFF)
