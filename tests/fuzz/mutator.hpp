// A seeded mutator for the fuzz tests: stacks a few random edits on an input, some blind
// (bits, bytes, cuts, copies of slices repeated thousands of times) and some that know the
// format's words (a dictionary), so inputs get past the first check into the deep code.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace isoterra::fuzz {

class Mutator {
public:
    Mutator(std::uint64_t seed, std::vector<std::string> dictionary) : rng_(seed), words_(std::move(dictionary)) {}

    /// Returns `input` with one to eight edits; `other` (another corpus entry) may be spliced in.
    std::string mutate(std::string s, const std::string& other) {
        const int edits = 1 + static_cast<int>(below(8));
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = s.empty() ? 0 : below(s.size() + 1);
            switch (below(10)) {
                case 0:  // flip a bit
                    if (!s.empty()) s[below(s.size())] ^= static_cast<char>(1u << below(8));
                    break;
                case 1:  // a random byte
                    if (!s.empty()) s[below(s.size())] = static_cast<char>(below(256));
                    break;
                case 2:  // a byte that means something to parsers
                    s.insert(at, 1, "\0\n\r\t \"'[]{}=.,#\\-+e\x1b\xff"[below(20)]);
                    break;
                case 3:  // a word of the format
                    if (!words_.empty()) s.insert(at, words_[below(words_.size())]);
                    break;
                case 4: {  // cut a slice out
                    const std::size_t n = below(std::min<std::size_t>(s.size() - std::min(at, s.size()), 64) + 1);
                    s.erase(std::min(at, s.size()), n);
                    break;
                }
                case 5: {  // repeat a short slice many times (nesting, huge lines)
                    if (s.empty()) break;
                    const std::size_t from = below(s.size()), n = 1 + below(std::min<std::size_t>(s.size() - from, 8));
                    const std::string slice = s.substr(from, n);
                    std::string many;
                    for (std::size_t k = 0, times = 1 + below(below(2) ? 16 : 5000); k < times; ++k) many += slice;
                    s.insert(at, many);
                    break;
                }
                case 6: {  // splice in a piece of another input
                    if (other.empty()) break;
                    const std::size_t from = below(other.size()), n = 1 + below(other.size() - from);
                    s.insert(at, other.substr(from, n));
                    break;
                }
                case 7:  // truncate
                    s.resize(below(s.size() + 1));
                    break;
                case 8: {  // overwrite a run with random bytes
                    for (std::size_t i = std::min(at, s.size()), n = below(16); n-- > 0 && i < s.size(); ++i)
                        s[i] = static_cast<char>(below(256));
                    break;
                }
                default: {  // a number at its limits
                    // clang-format off
                    static const char* const kNumbers[] = {"0", "-0", "1e308", "-1e308", "1e-320", "nan", "inf", "-inf",
                                                           "4294967296", "-2147483649", "9223372036854775808", "0x7fffffff",
                                                           "1e8", "100000001", "3.4028235e38", "1_0", "0.1"};
                    // clang-format on
                    s.insert(at, kNumbers[below(std::size(kNumbers))]);
                }
            }
        }
        return s;
    }

    /// A number in [0, n).
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }
    std::mt19937_64& rng() { return rng_; }

private:
    std::mt19937_64 rng_;
    std::vector<std::string> words_;
};

}  // namespace isoterra::fuzz
