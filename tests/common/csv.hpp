// A tiny reader for the committed reference CSV files (header line, then numbers).
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace isoterra::test {

/// Returns the rows of numbers in `path`, skipping the header line. Throws if unreadable.
inline std::vector<std::vector<double>> read_csv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<std::vector<double>> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::vector<double> row;
        std::stringstream cells(line);
        std::string cell;
        while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace isoterra::test
