// Running a bake's jobs: each writes its tiles, its tileset file and, last, its manifest
// (every file's size and SHA-256), all atomically, so a job is complete exactly when its
// manifest exists. The digest is the SHA-256 of one line per file, in the jobs' order.
#include <filesystem>
#include <sys/stat.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bake_files.hpp"

namespace isoterra {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::ordered_json;

// Reads dir's file at `path`; `found` false when there is none. Anything else at that name
// (a folder, a FIFO that would never end, a device) is refused before it is opened, and a
// read that fails is an error rather than a file that differs.
std::string read_file(const std::string& path, bool& found) {
    found = false;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return {};
    try {
        std::string bytes = read_regular_file(path, "bake", std::size_t{1} << 32);
        found = true;
        return bytes;
    } catch (const FileReadError& e) {
        throw BakeError(e.what());
    }
}

// Writes `bytes` to dir/relative (folders made as needed), atomically.
void put(const std::string& dir, const std::string& relative, const std::string& bytes) {
    const fs::path path = fs::path(dir) / relative;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw IoError(fmt::format("{}: cannot make the folder ({})", path.parent_path().string(), ec.message()), ec.value());
    write_file_atomically(path.string(), bytes);
}

std::string job_name(const LodColumn& c) { return fmt::format("{}/{}/{}", c.level, c.x, c.z); }

// The files every process of a bake writes first, in the digest's order.
std::vector<std::pair<std::string, std::string>> start_files(const BakePlan& plan, const Field& field, const ChunkDeltas* deltas) {
    const BakeSettings& s = plan.settings();
    std::vector<Box> roots;
    for (int z = s.z0; z <= s.z1; ++z)
        for (int x = s.x0; x <= s.x1; ++x) roots.push_back(tile_survey_box(field, deltas, {s.levels - 1, x, z}, s.mesher, s.lowest_layer));
    std::vector<std::pair<std::string, std::string>> files = {{"bake.json", s.to_json()},
                                                              {"tileset.json", detail::root_tileset_json(plan, roots)}};
    if (s.heightmaps) files.push_back({"height/heights.json", detail::heights_json(plan)});
    return files;
}

const char* const kStartFiles[] = {"bake.json", "tileset.json", "height/heights.json"};

// A job's manifest as read back: its files' (path, sha256), or false when it is missing or
// not one of this bake's.
bool read_manifest(const std::string& dir, const LodColumn& root, const std::string& settings_sha,
                   std::vector<std::pair<std::string, std::string>>& files, std::string* bytes = nullptr) {
    bool found = false;
    const std::string text = read_file((fs::path(dir) / job_manifest_path(root)).string(), found);
    if (!found) return false;
    try {
        const auto j = nlohmann::json::parse(text);
        if (j.at("bake_json_sha256") != settings_sha) return false;
        files.clear();
        for (const auto& f : j.at("files")) files.push_back({f.at(0).get<std::string>(), f.at(2).get<std::string>()});
    } catch (const nlohmann::json::exception&) {
        return false;
    }
    if (bytes) *bytes = text;
    return true;
}

std::string line(const std::string& sha, const std::string& path) { return sha + "  " + path + "\n"; }

}  // namespace

void start_bake(const BakePlan& plan, const Field& field, const ChunkDeltas* deltas, const std::string& dir) {
    // The folder is claimed by writing bake.json where none is: of two bakes started together,
    // one claims it and the other finds its settings.
    const std::string wanted = plan.settings().to_json();
    const std::string settings_path = (fs::path(dir) / "bake.json").string();
    bool found = false;
    std::string existing = read_file(settings_path, found);  // a folder or a FIFO there is refused here
    if (!found && !write_file_if_absent(settings_path, wanted)) existing = read_file(settings_path, found);  // claimed meanwhile
    if (found && existing != wanted) {
        const BakeSettings theirs = BakeSettings::from_json(existing, dir + "/bake.json");
        throw BakeError(
            fmt::format("{} holds a bake of other settings ({} seed {}, {} levels, {}); "
                        "bake into another folder or remove it",
                        dir, theirs.terrain_name, theirs.seed, theirs.levels, mesher_name(theirs.mesher)));
    }
    // The digest is written last: a name taken by a folder is refused now, not after the jobs.
    read_file((fs::path(dir) / "bake.digest").string(), found);
    for (const auto& [name, bytes] : start_files(plan, field, deltas)) {
        bool have = false;
        if (read_file((fs::path(dir) / name).string(), have) != bytes || !have) put(dir, name, bytes);
    }
}

BakeJobReport run_bake_job(const BakePlan& plan, const Field& field, const ChunkDeltas* deltas, std::size_t index, const std::string& dir) {
    const BakeSettings& s = plan.settings();
    const BakeJob& job = plan.jobs().at(index);
    BakeJobReport report;
    report.tiles_per_level.assign(static_cast<std::size_t>(s.levels), 0);
    report.triangles_per_level.assign(static_cast<std::size_t>(s.levels), 0);
    Json files = Json::array();
    const auto keep = [&](const std::string& relative, const std::string& bytes) {
        put(dir, relative, bytes);
        files.push_back({relative, bytes.size(), sha256_hex(bytes)});
        report.bytes += bytes.size();
    };
    std::vector<detail::JobTile> tiles;
    for (const LodColumn& c : job.tiles()) {
        const BakedTile tile = bake_tile(field, deltas, c, s.mesher, s.lowest_layer);
        const bool content = tile.mesh.triangle_count() > 0;
        if (content) {
            keep(tile_content_path(c), encode_gltf({{fmt::format("tile_{}_{}_{}", c.level, c.x, c.z), tile.mesh}}, true, true, s.compress));
            ++report.tiles_with_content;
            report.triangles += tile.mesh.triangle_count();
            report.triangles_per_level[static_cast<std::size_t>(c.level)] += tile.mesh.triangle_count();
        }
        if (s.heightmaps) keep(height_tile_path(c), detail::height_tile_png(field, deltas, c));
        // A margin of a centimetre: the box is written as centre and half sizes.
        tiles.push_back({c, content, {tile.box.lo - 0.01, tile.box.hi + 0.01}});
        ++report.tiles;
        ++report.tiles_per_level[static_cast<std::size_t>(c.level)];
    }
    std::vector<Box> child_boxes;
    for (const LodColumn& c : job.child_roots()) child_boxes.push_back(tile_survey_box(field, deltas, c, s.mesher, s.lowest_layer));
    keep(job_tileset_path(job.root), detail::job_tileset_json(job, tiles, child_boxes));
    Json manifest;
    manifest["job"] = job_name(job.root);
    manifest["bake_json_sha256"] = sha256_hex(s.to_json());
    manifest["tiles"] = report.tiles;
    manifest["tiles_with_content"] = report.tiles_with_content;
    manifest["triangles"] = report.triangles;
    manifest["files"] = files;
    put(dir, job_manifest_path(job.root), manifest.dump(1) + "\n");
    return report;
}

bool bake_job_done(const BakePlan& plan, std::size_t index, const std::string& dir) {
    std::vector<std::pair<std::string, std::string>> files;
    return read_manifest(dir, plan.jobs().at(index).root, sha256_hex(plan.settings().to_json()), files);
}

std::string finish_bake(const BakePlan& plan, const std::string& dir) {
    const std::string settings_sha = sha256_hex(plan.settings().to_json());
    std::string listing;
    for (const char* name : kStartFiles) {
        bool found = false;
        const std::string bytes = read_file((fs::path(dir) / name).string(), found);
        if (found) listing += line(sha256_hex(bytes), name);
    }
    std::vector<std::pair<std::string, std::string>> files;
    std::string manifest;
    for (const BakeJob& job : plan.jobs()) {
        if (!read_manifest(dir, job.root, settings_sha, files, &manifest)) return "";
        for (const auto& [path, sha] : files) listing += line(sha, path);
        listing += line(sha256_hex(manifest), job_manifest_path(job.root));
    }
    const std::string digest = sha256_hex(listing);
    put(dir, "bake.digest", digest + "\n");
    return digest;
}

BakeCheck verify_bake(const std::string& dir) {
    bool found = false;
    const std::string settings_text = read_file((fs::path(dir) / "bake.json").string(), found);
    if (!found) throw BakeError(fmt::format("{}: no bake.json: not a bake folder", dir));
    const BakePlan plan(BakeSettings::from_json(settings_text, dir + "/bake.json"));
    const std::string settings_sha = sha256_hex(settings_text);
    BakeCheck check;
    std::string listing;
    const auto hash_of = [&](const std::string& path, bool& have) {
        const std::string bytes = read_file((fs::path(dir) / path).string(), have);
        ++check.files;
        return have ? sha256_hex(bytes) : std::string("missing");
    };
    for (const char* name : kStartFiles) {
        bool have = false;
        const std::string sha = hash_of(name, have);
        if (have) listing += line(sha, name);
        else if (std::string(name) != "height/heights.json" || plan.settings().heightmaps)
            check.problems.push_back(fmt::format("{}: missing", name));
    }
    std::vector<std::pair<std::string, std::string>> files;
    std::string manifest;
    for (const BakeJob& job : plan.jobs()) {
        ++check.jobs;
        if (!read_manifest(dir, job.root, settings_sha, files, &manifest)) {
            check.problems.push_back(
                fmt::format("job {}: not done (no manifest of this bake at {})", job_name(job.root), job_manifest_path(job.root)));
            continue;
        }
        for (const auto& [path, sha] : files) {
            bool have = false;
            const std::string actual = hash_of(path, have);
            if (!have) check.problems.push_back(fmt::format("{}: missing (job {})", path, job_name(job.root)));
            else if (actual != sha)
                check.problems.push_back(fmt::format("{}: differs from its manifest (job {})", path, job_name(job.root)));
            listing += line(actual, path);
        }
        listing += line(sha256_hex(manifest), job_manifest_path(job.root));
    }
    check.digest = sha256_hex(listing);
    const std::string recorded = read_file((fs::path(dir) / "bake.digest").string(), found);
    if (found && check.problems.empty() && recorded != check.digest + "\n")
        check.problems.push_back("bake.digest: differs from the digest of the files");
    return check;
}

}  // namespace isoterra
