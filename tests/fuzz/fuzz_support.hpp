// What the fuzz targets share (fuzz_test.cpp, capi_fuzz_test.cpp): the time each may run,
// the seed, the corpus, the one-line message check and the loop over mutated inputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "isoterra/base.hpp"
#include "mutator.hpp"
#include "temp_files.hpp"

namespace isoterra::fuzz {

inline double seconds_per_target() {
    const char* s = std::getenv("ISOTERRA_FUZZ_SECONDS");
    return s ? std::atof(s) : 10.0;
}

inline std::uint64_t base_seed() {
    const char* s = std::getenv("ISOTERRA_FUZZ_SEED");
    return s ? std::strtoull(s, nullptr, 10) : 20261130;
}

inline std::vector<std::string> read_folder(const std::string& dir, const std::string& suffix = "") {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name[0] != '.' && name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                names.push_back(name);
        }
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());  // the same order everywhere: runs reproduce
    std::vector<std::string> contents;
    for (const auto& n : names) contents.push_back(test::read_bytes(dir + "/" + n));
    return contents;
}

inline std::vector<std::string> corpus(const std::string& target) {
    auto inputs = read_folder(std::string(ISOTERRA_SOURCE_DIR) + "/tests/fuzz/corpus/" + target);
    EXPECT_FALSE(inputs.empty()) << target;
    return inputs;
}

// A one-line message a terminal can show as it is: no control bytes, bounded.
inline void expect_clean_message(const std::string& what, std::size_t max_bytes, const std::string& input) {
    EXPECT_LE(what.size(), max_bytes) << what.substr(0, 200);
    for (const char c : what)
        if (static_cast<unsigned char>(c) < 0x20) {
            ADD_FAILURE() << "control byte " << int(c) << " in: " << text_excerpt(what, 300) << "\ninput: " << text_excerpt(input, 300);
            break;
        }
}

// Runs `target` on the corpus, then on mutations until the time is up; returns the count.
inline std::size_t run_target(const std::string& name, const std::vector<std::string>& inputs, const std::vector<std::string>& words,
                              const std::function<void(const std::string&)>& target) {
    for (const auto& input : inputs) target(input);
    fuzz::Mutator mutator(base_seed() ^ std::hash<std::string>{}(name), words);
    const auto start = std::chrono::steady_clock::now();
    const double budget = seconds_per_target();
    std::size_t i = 0;
    for (; std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < budget; ++i) {
        const std::string input = mutator.mutate(inputs[i % inputs.size()], inputs[(i * 7 + 3) % inputs.size()]);
        target(input);
        if (::testing::Test::HasFailure()) {
            const std::string path = test::fresh_path("fuzz_" + name + "_failure.bin");
            std::ofstream(path, std::ios::binary) << input;
            ADD_FAILURE() << name << ": iteration " << i << " failed; its input is in " << path;
            break;
        }
    }
    std::printf("%s: %zu mutated inputs in %.0f s\n", name.c_str(), i, budget);
    return i;
}

}  // namespace isoterra::fuzz
