#include "spec/ns2_movement.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "spec/message_text.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using spec_detail::kShown;
using spec_detail::one_line;

constexpr size_t kMaxLineBytes = 1000;
constexpr size_t kMaxLines = 10'000'000;

// "$node_(12)" -> 12, or -1.
int node_index(const std::string& token) {
  const std::string head = "$node_(";
  if (token.size() < head.size() + 2 || token.compare(0, head.size(), head) != 0 || token.back() != ')') return -1;
  const std::string digits = token.substr(head.size(), token.size() - head.size() - 1);
  if (digits.empty() || digits.size() > 6) return -1;
  int n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

bool finite_number(const std::string& token, double& out) {
  std::istringstream in(token);
  in >> out;
  return in && in.peek() == std::char_traits<char>::eof() && std::isfinite(out);
}

}  // namespace

std::vector<int> check_ns2_movement_file(const std::string& path, int nodes) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw SpecError("mobility.file", "'" + one_line(path, kShown) + "' is not a readable file");
  }
  std::ifstream file(path);
  if (!file) throw SpecError("mobility.file", "cannot open '" + one_line(path, kShown) + "'");
  std::set<int> moved;
  std::string line;
  size_t number = 0;
  const auto bad = [&](const std::string& what) {
    throw SpecError("mobility.file", "line " + std::to_string(number) + ": " + what);
  };
  const auto node_ok = [&](int n) {
    if (n < 0) bad("expected $node_(i)");
    if (n >= nodes)
      bad("node " + std::to_string(n) + " is not in the network (nodes 0.." + std::to_string(nodes - 1) + ")");
    moved.insert(n);
  };
  std::array<char, kMaxLineBytes + 1> buffer{};
  while (file.getline(buffer.data(), buffer.size()) || file.gcount() > 0) {
    ++number;
    if (file.fail() && !file.eof()) bad("longer than 1000 bytes");  // bounded: never reads a huge line whole
    if (number > kMaxLines) bad("too many lines");
    line.assign(buffer.data());
    for (char& c : line) {
      if (c == '"') c = ' ';
    }
    std::istringstream in(line);
    std::vector<std::string> t;
    for (std::string w; in >> w;) t.push_back(w);
    if (t.empty() || t[0][0] == '#' || t[0] == "$god_") continue;
    double value = 0;
    if (t.size() == 4 && t[1] == "set") {  // $node_(i) set X_ 10.0
      node_ok(node_index(t[0]));
      if (t[2] != "X_" && t[2] != "Y_" && t[2] != "Z_") bad("expected X_, Y_ or Z_ after set");
      if (!finite_number(t[3], value)) bad("'" + one_line(t[3], kShown) + "' is not a number");
      continue;
    }
    if (t.size() == 8 && t[0] == "$ns_" && t[1] == "at" && t[4] == "setdest") {
      double at = 0, x = 0, y = 0, speed = 0;
      if (!finite_number(t[2], at) || at < 0) bad("the time must be a number >= 0");
      node_ok(node_index(t[3]));
      if (!finite_number(t[5], x) || !finite_number(t[6], y)) bad("setdest x and y must be numbers");
      if (!finite_number(t[7], speed) || speed < 0) bad("the speed must be a number >= 0");
      continue;
    }
    bad("not an ns-2 movement line: '" + one_line(line, kShown) + "'");
  }
  if (moved.empty()) throw SpecError("mobility.file", "moves no node");
  return {moved.begin(), moved.end()};
}

}  // namespace mantra::sim
