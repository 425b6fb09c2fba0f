#include "spec/message_text.h"

#include <algorithm>
#include <cstdint>

namespace mantra::sim::spec_detail {

using nlohmann::json;

// Length in bytes of the valid UTF-8 sequence at s[i], or 0 if it is not one.
size_t utf8_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  uint32_t cp = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return n;
}

// `s` as printable UTF-8 on one line: control characters, invalid bytes and the
// code points that some readers take as line breaks (U+0085, U+2028, U+2029)
// escaped; cut to about `max` bytes with "..." (at a character boundary).
std::string one_line(std::string_view s, size_t max) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = utf8_length(s, i);
    const std::string_view seq = s.substr(i, n == 0 ? 1 : n);
    if (n == 1 && c >= 0x20 && c != 0x7F) {
      out += static_cast<char>(c);
    } else if (n == 1 && c == '\n') {
      out += "\\n";
    } else if (n == 1 && c == '\t') {
      out += "\\t";
    } else if (n <= 1) {  // another control character, or a byte that is not UTF-8
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(seq[1]) < 0xA0) {  // C1 controls, U+0085 among them
      out += "\\u00";
      out += hex[static_cast<unsigned char>(seq[1]) >> 4];
      out += hex[seq[1] & 15];
    } else if (seq == "\xE2\x80\xA8" || seq == "\xE2\x80\xA9") {  // line and paragraph separators
      out += seq[2] == '\xA8' ? "\\u2028" : "\\u2029";
    } else {
      out += seq;
    }
    i += seq.size();
  }
  return out;
}

// A value as the user wrote it, short: strings without quotes, the rest as JSON.
std::string shown(const json& v) {
  if (v.is_string()) return one_line(v.get_ref<const std::string&>(), kShown);
  return one_line(v.dump(-1, ' ', false, json::error_handler_t::replace), kShown);
}

// A key as part of a dotted path: quoted unless it is a plain name.
std::string key_text(const std::string& key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return plain ? key : "'" + one_line(key, kShown) + "'";
}

std::string path(const std::string& where, const std::string& key) {
  return where.empty() ? key_text(key) : where + "." + key_text(key);
}

std::string at(const std::string& where, size_t i) { return where + "[" + std::to_string(i) + "]"; }

}  // namespace mantra::sim::spec_detail
