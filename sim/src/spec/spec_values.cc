#include "spec/spec_values.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "spec/message_text.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace spec_detail {

using nlohmann::json;

void check_keys(const json& obj, const std::string& where, const std::set<std::string>& allowed) {
  if (!obj.is_object()) throw SpecError(where, "must be an object");
  for (const auto& [key, value] : obj.items()) {
    if (!allowed.count(key)) throw SpecError(path(where, key), "unknown key");
  }
}

const json& required(const json& obj, const std::string& where, const std::string& key) {
  if (!obj.contains(key)) throw SpecError(path(where, key), "missing required field");
  return obj.at(key);
}

std::string name_of(const json& v) { return v.is_string() ? v.get<std::string>() : shown(v); }

[[noreturn]] void out_of_range(const json& v, const std::string& key, const Range& r) {
  throw SpecError(key, shown(v) + " is out of range " + r.text);
}

// A finite JSON number inside `r`.
double number(const json& v, const std::string& key, const Range& r) {
  if (!v.is_number()) throw SpecError(key, "must be a number " + std::string(r.text));
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw SpecError(key, "must be a finite number " + std::string(r.text));
  if (!r.holds(x)) out_of_range(v, key, r);
  return x;
}

// A JSON integer inside `r` (an integral float such as 4.0 counts). Checked
// before any conversion, so 1e20 or 2^64 never wraps into range.
int64_t integer(const json& v, const std::string& key, const Range& r) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (static_cast<double>(u) > r.hi || u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      out_of_range(v, key, r);
    const auto i = static_cast<int64_t>(u);
    if (!r.holds(static_cast<double>(i))) out_of_range(v, key, r);
    return i;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<int64_t>();
    if (!r.holds(static_cast<double>(i))) out_of_range(v, key, r);
    return i;
  }
  if (!v.is_number()) throw SpecError(key, "must be an integer " + std::string(r.text));
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw SpecError(key, "must be a finite number " + std::string(r.text));
  if (x != std::floor(x)) throw SpecError(key, shown(v) + " is not an integer " + std::string(r.text));
  // Integral doubles in range: r.hi of an int range is at most 2^63 - 1, so
  // a double that passes holds() and is below 2^63 converts exactly.
  if (!r.holds(x) || x >= 9223372036854775808.0) out_of_range(v, key, r);
  return static_cast<int64_t>(x);
}

int small_integer(const json& v, const std::string& key, const Range& r) {
  return static_cast<int>(integer(v, key, r));
}

double probability(const json& v, const std::string& key) { return number(v, key, kProbability); }

bool boolean(const json& v, const std::string& key) {
  if (!v.is_boolean()) throw SpecError(key, "must be true or false");
  return v.get<bool>();
}

// -- quantities with units ---------------------------------------------------------

namespace {

struct Unit {
  const char* suffix;
  double scale;  // to the base unit (seconds, bit/s)
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "<number><unit>": [0-9]*.?[0-9]+ with an optional exponent, then letters,
// blanks around. A loop, not std::regex (whose matcher recurses per character).
bool split_quantity(const std::string& text, std::string& number_part, std::string& suffix) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n && is_space(text[i])) ++i;
  const size_t begin = i;
  while (i < n && is_digit(text[i])) ++i;
  if (i < n && text[i] == '.') {
    ++i;
    const size_t frac = i;
    while (i < n && is_digit(text[i])) ++i;
    if (i == frac) return false;
  } else if (i == begin) {
    return false;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < n && is_digit(text[j])) {
      while (j < n && is_digit(text[j])) ++j;
      i = j;
    }
  }
  number_part = text.substr(begin, i - begin);
  while (i < n && is_space(text[i])) ++i;
  const size_t unit = i;
  while (i < n && is_letter(text[i])) ++i;
  suffix = text.substr(unit, i - unit);
  while (i < n && is_space(text[i])) ++i;
  return i == n;
}

// A number in the base unit, or a string "<number><unit>" from `units`, inside `r`.
double quantity(const json& v, const std::string& key, const std::vector<Unit>& units, const char* kind,
                const char* example, const Range& r) {
  if (v.is_number()) return number(v, key, r);
  if (!v.is_string()) throw SpecError(key, std::string("must be a ") + kind + " (" + example + ") " + r.text);
  const std::string& text = v.get_ref<const std::string&>();
  std::string digits, suffix;
  if (text.size() <= 1000 && split_quantity(text, digits, suffix)) {
    double scale = suffix.empty() ? 1 : 0;
    for (const Unit& u : units) {
      if (suffix == u.suffix) scale = u.scale;
    }
    if (scale > 0) {
      // strtod: no exceptions; "1e400" gives inf, "1e-400" gives 0 (both out of range).
      const double x = std::strtod(digits.c_str(), nullptr) * scale;
      if (!std::isfinite(x) || !r.holds(x)) out_of_range(v, key, r);
      return x;
    }
  }
  throw SpecError(key, "'" + shown(v) + "' is not a " + kind + " (" + example + ")");
}

}  // namespace

double duration(const json& v, const std::string& key, const Range& r) {
  static const std::vector<Unit> units = {{"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"min", 60}};
  return quantity(v, key, units, "duration", "e.g. 200ms, 1.5s, 3", r);
}

int64_t rate(const json& v, const std::string& key) {
  static const std::vector<Unit> units = {{"bps", 1}, {"kbps", 1e3}, {"Kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}};
  return std::llround(quantity(v, key, units, "rate", "e.g. 180kbps, 2Mbps", kRate));
}

}  // namespace spec_detail

double parse_duration(const nlohmann::json& v, const std::string& key) {
  return spec_detail::duration(v, key, spec_detail::kTime);
}

int64_t parse_rate(const nlohmann::json& v, const std::string& key) { return spec_detail::rate(v, key); }

}  // namespace mantra::sim
