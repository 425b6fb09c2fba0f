// User text made safe for a one-line message (SpecError, mantra-sim's stderr).
//
// Whatever a spec holds (control characters, invalid UTF-8, line separators,
// values megabytes long), the text these return is printable UTF-8 on one
// line: control characters, bytes that are not UTF-8 and the code points some
// readers take as line breaks (U+0085, U+2028, U+2029) are escaped, and a
// user's value is cut to about kShown bytes at a character boundary.
//
// The core and nlohmann only, never ns-3 (the spec fuzzer builds this file).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mantra::sim::spec_detail {

// Length in bytes of the valid UTF-8 sequence at s[i], or 0 if it is not one.
size_t utf8_length(std::string_view s, size_t i);

// `s` as printable UTF-8 on one line: control characters, invalid bytes and the
// code points that some readers take as line breaks (U+0085, U+2028, U+2029)
// escaped; cut to about `max` bytes with "..." (at a character boundary).
std::string one_line(std::string_view s, size_t max);

inline constexpr size_t kShown = 60;  // bytes of a user's value shown in a message

// A value as the user wrote it, short: strings without quotes, the rest as JSON.
std::string shown(const nlohmann::json& v);

// A key as part of a dotted path: quoted unless it is a plain name.
std::string key_text(const std::string& key);

// `key` under `where` ("topology" + "hops" -> "topology.hops"; "" + key -> key).
std::string path(const std::string& where, const std::string& key);

// Element `i` of the list at `where` ("flows" + 2 -> "flows[2]").
std::string at(const std::string& where, size_t i);

}  // namespace mantra::sim::spec_detail
