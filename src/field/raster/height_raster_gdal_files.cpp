// The files GDAL would read for a raster, checked before GDAL opens it: GDAL opens sidecars
// (.aux.xml, .tfw, .prj, .hdr) and a VRT's sources by name and would wait forever on a FIFO or
// read a device without end, so every such file must be a regular one. A VRT's raw bands
// (VRTRawRasterBand, a file of bare samples at any offset) are refused, and its sources are
// checked the same way, nested VRTs included.
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "height_raster.hpp"
#include "isoterra/base.hpp"

#include "gdal_library.hpp"

namespace isoterra::graph {

#ifdef ISOTERRA_HAS_GDAL
namespace {

namespace fs = std::filesystem;

constexpr int kMaxVrtDepth = 8;                 // GDAL's own bound on nested VRTs is near this
constexpr std::size_t kMaxVrtBytes = 1u << 26;  // 64 MiB of XML: a mosaic of very many tiles
constexpr std::size_t kMaxSources = 100000;

bool is_regular(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Files beside `path` whose names start with its name or its stem and a dot: where GDAL's
// drivers look for sidecars.
void check_siblings(const std::string& raster, const std::string& path) {
    const fs::path p(path);
    const std::string name = p.filename().string(), stem = p.stem().string() + ".";
    std::error_code ec;
    for (fs::directory_iterator it(p.parent_path().empty() ? fs::path(".") : p.parent_path(), ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string other = it->path().filename().string();
        if (other == name || (other.rfind(name, 0) != 0 && other.rfind(stem, 0) != 0)) continue;
        std::error_code type_ec;
        const auto status = it->status(type_ec);
        if (!type_ec && (fs::is_regular_file(status) || fs::is_directory(status))) continue;
        throw RasterError(
            fmt::format("{}: {} lies beside it and is not a regular file (GDAL may read it)", shown(raster), shown(it->path().string())));
    }
}

std::string read_head(const std::string& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    std::string head(bytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(bytes));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

bool looks_like_vrt(const std::string& path) {
    const std::string head = read_head(path, 256);
    const std::size_t start = head.find_first_not_of(" \t\r\n\xef\xbb\xbf");
    return start != std::string::npos && (head.compare(start, 11, "<VRTDataset") == 0 || head.compare(start, 5, "<?xml") == 0) &&
           head.find("<VRTDataset") != std::string::npos;
}

class FileCheck {
public:
    explicit FileCheck(const std::string& raster) : raster_(raster) {}

    void file(const std::string& path, int depth) {
        if (!is_regular(path)) throw RasterError(fmt::format("{}: reads {}, which is not a regular file", shown(raster_), shown(path)));
        check_siblings(raster_, path);
        if (looks_like_vrt(path)) vrt(path, depth);
    }

private:
    void vrt(const std::string& path, int depth) {
        if (depth >= kMaxVrtDepth) throw RasterError(fmt::format("{}: VRTs nested more than {} deep", shown(raster_), kMaxVrtDepth));
        struct stat st;
        if (::stat(path.c_str(), &st) != 0 || static_cast<std::size_t>(st.st_size) > kMaxVrtBytes)
            throw RasterError(fmt::format("{}: {} is a VRT of more than {} bytes", shown(raster_), shown(path), kMaxVrtBytes));
        const std::string text = read_head(path, static_cast<std::size_t>(st.st_size));
        CPLXMLNode* root = gdal().CPLParseXMLString(text.c_str());
        if (!root) return;  // not XML after all: GDAL says what it is
        struct Free {
            CPLXMLNode* n;
            ~Free() { gdal().CPLDestroyXMLNode(n); }
        } owner{root};
        const std::string folder = fs::path(path).parent_path().string();
        // Iterative walk: the XML's nesting is the file's to choose.
        std::vector<const CPLXMLNode*> stack{root};
        while (!stack.empty()) {
            const CPLXMLNode* n = stack.back();
            stack.pop_back();
            if (n->eType != CXT_Element) continue;
            if (const char* sub = gdal().CPLGetXMLValue(n, "subClass", nullptr); sub && std::strcmp(sub, "VRTRawRasterBand") == 0)
                throw RasterError(
                    fmt::format("{}: {} has a raw band (VRTRawRasterBand), which isoterra does not read", shown(raster_), shown(path)));
            if (std::strcmp(n->pszValue, "SourceFilename") == 0 || std::strcmp(n->pszValue, "SourceDataset") == 0) {
                if (++sources_ > kMaxSources) throw RasterError(fmt::format("{}: more than {} VRT sources", shown(raster_), kMaxSources));
                const std::string name = gdal().CPLGetXMLValue(n, nullptr, "");
                const char* relative = gdal().CPLGetXMLValue(n, "relativeToVRT", "0");
                if (name.rfind("/vsi", 0) == 0 || name.find("://") != std::string::npos || name.find(':') == 0)
                    throw RasterError(fmt::format("{}: {} names a source that is not a plain file: {}", shown(raster_), shown(path),
                                                  text_excerpt(name, 100)));
                const bool joined = std::strcmp(relative, "1") == 0 && !fs::path(name).is_absolute();
                file(joined ? (fs::path(folder) / name).string() : name, depth + 1);
            }
            for (const CPLXMLNode* c = n->psChild; c; c = c->psNext) stack.push_back(c);
        }
    }

    const std::string& raster_;
    std::size_t sources_ = 0;
};

}  // namespace

void check_gdal_raster_files(const std::string& path) { FileCheck(path).file(path, 0); }

#endif

}  // namespace isoterra::graph
