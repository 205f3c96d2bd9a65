// The memory a command may plan for, checked before a large allocation so that a region, a
// view, a bake plan or a raster too large for the machine is refused in one line rather
// than growing until bad_alloc.
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "isoterra/base.hpp"

namespace isoterra {

namespace {

constexpr const char* kVariable = "ISOTERRA_MEMORY_BUDGET";

// "1073741824", "512M", "8G", "1.5T": a number of bytes with an optional power-of-1024
// suffix, at least 1 MiB and at most 1 PiB.
double parse_bytes(const std::string& text) {
    std::size_t digits = 0;
    while (digits < text.size() && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.')) ++digits;
    const std::string number = text.substr(0, digits), suffix = text.substr(digits);
    double scale = 0;
    if (suffix.empty() || suffix == "B") scale = 1;
    else if (suffix == "K" || suffix == "KiB") scale = 0x1p10;
    else if (suffix == "M" || suffix == "MiB") scale = 0x1p20;
    else if (suffix == "G" || suffix == "GiB") scale = 0x1p30;
    else if (suffix == "T" || suffix == "TiB") scale = 0x1p40;
    char* end = nullptr;
    const double value = number.empty() || number.size() > 20 ? NAN : std::strtod(number.c_str(), &end) * scale;
    if (scale == 0 || !end || *end != '\0' || !(value >= 0x1p20 && value <= 0x1p50))
        throw MemoryBudgetError(fmt::format("{}={}: expected bytes from 1M to 1024T, as 512M, 8G or 1.5T", kVariable, text_excerpt(text)));
    return value;
}

}  // namespace

std::string byte_count_text(double bytes) {
    if (bytes < 0x1p10) return fmt::format("{:.0f} bytes", bytes);
    if (bytes < 0x1p20) return fmt::format("{:.1f} KiB", bytes / 0x1p10);
    if (bytes < 0x1p30) return fmt::format("{:.1f} MiB", bytes / 0x1p20);
    if (bytes < 0x1p40) return fmt::format("{:.1f} GiB", bytes / 0x1p30);
    return fmt::format("{:.3g} TiB", bytes / 0x1p40);
}

MemoryBudget memory_budget() {
    if (const char* value = std::getenv(kVariable); value && *value) return {parse_bytes(value), fmt::format("{}={}", kVariable, value)};
    const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    if (!(physical > 0)) return {0x1p32, fmt::format("4 GiB, the machine's memory unknown; {} sets it", kVariable)};
    return {physical / 2, fmt::format("half of this machine's {}; {} sets it", byte_count_text(physical), kVariable)};
}

void check_memory_budget(double bytes, const std::string& what) {
    const MemoryBudget budget = memory_budget();
    if (!(bytes <= budget.bytes))
        throw MemoryBudgetError(fmt::format("{} needs about {}, more than the memory budget of {} ({})", what, byte_count_text(bytes),
                                            byte_count_text(budget.bytes), budget.source));
}

}  // namespace isoterra
