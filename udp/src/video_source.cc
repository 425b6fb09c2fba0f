#include "video_source.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "spec/message_text.h"
#include "spec/spec.h"

namespace mantra::udp {

std::string VideoSource::open(const std::string& path, double duration_s) {
  const std::string where = "--video " + sim::spec_detail::one_line(path, 200);
  std::ifstream in(path);
  if (!in) return where + ": cannot open it";
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return where + ": not JSON (write it with ./mantra video-encode)";
  }
  if (!doc.is_object()) return where + ": must be an object {media, bytes}";
  for (const auto& [key, value] : doc.items()) {
    if (key != "media" && key != "bytes")
      return where + ": unknown key '" + sim::spec_detail::one_line(key, 60) + "' (allowed: media, bytes)";
  }
  if (!doc.contains("media")) return where + ": media: missing";
  if (!doc.contains("bytes") || !doc["bytes"].is_string()) return where + ": bytes: must name the frames' file";
  try {
    spec_ = sim::parse_media(doc["media"], "media", 0, duration_s);
  } catch (const sim::SpecError& e) {
    return where + ": " + e.what();
  }

  const std::filesystem::path bin = std::filesystem::path(path).parent_path() / doc["bytes"].get<std::string>();
  std::ifstream data(bin, std::ios::binary);
  if (!data) return where + ": bytes: cannot open " + bin.string();
  bytes_.assign(std::istreambuf_iterator<char>(data), std::istreambuf_iterator<char>());
  size_t at = 0;
  starts_.clear();
  for (const sim::MediaRepresentation& rep : spec_->representations) {
    starts_.emplace_back();
    for (const sim::MediaFrame& f : rep.frames) {
      starts_.back().push_back(at);
      at += static_cast<size_t>(f.bytes);
    }
  }
  if (at != bytes_.size()) {
    return where + ": bytes: " + bin.string() + " holds " + std::to_string(bytes_.size()) +
           " bytes, the frames of media.representations " + std::to_string(at);
  }
  return {};
}

std::span<const uint8_t> VideoSource::frame(int rep, int64_t d) const {
  const auto r = static_cast<size_t>(rep);
  const auto i = static_cast<size_t>(d);
  const auto bytes = static_cast<size_t>(spec_->representations[r].frames[i].bytes);
  return std::span<const uint8_t>(bytes_).subspan(starts_[r][i], bytes);
}

}  // namespace mantra::udp
