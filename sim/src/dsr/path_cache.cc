#include "dsr/path_cache.h"

#include <algorithm>

namespace mantra::sim::dsr {

void remove_loops(Path& path) {
  for (size_t forward = 0; forward < path.size(); ++forward) {
    for (size_t back = path.size() - 1; back > forward; --back) {
      if (path[back] == path[forward]) {  // cut the loop: keep one copy, at `forward`
        path.erase(path.begin() + static_cast<std::ptrdiff_t>(forward),
                   path.begin() + static_cast<std::ptrdiff_t>(back));
        break;
      }
    }
  }
}

PathCache::PathCache(Address self) : self_(self) {}

void PathCache::add(const Path& path) {
  if (path.size() >= 2 && path.front() == self_) primary_.add(path);
}

void PathCache::notice_used(const Path& path) {
  if (path.size() >= 2 && path.front() == self_) secondary_.add(path);
}

std::optional<PathCache::Found> PathCache::best(Address destination) const {
  std::optional<Found> best;
  auto search = [&](const Table& table, bool secondary) {
    for (size_t line = 0; line < table.lines.size(); ++line) {
      const Path& p = table.lines[line];
      const auto at = std::find(p.begin(), p.end(), destination);
      if (at == p.end()) continue;
      const size_t nodes = static_cast<size_t>(at - p.begin()) + 1;
      if (best && nodes >= best->path.size()) continue;
      best = Found{Path(p.begin(), at + 1), secondary ? std::optional<size_t>(line) : std::nullopt};
    }
  };
  search(primary_, false);
  search(secondary_, true);
  return best;
}

std::optional<Path> PathCache::find(Address destination) const {
  std::optional<Found> found = best(destination);
  if (!found) return std::nullopt;
  return std::move(found->path);
}

std::optional<Path> PathCache::use(Address destination) {
  std::optional<Found> found = best(destination);
  if (!found) return std::nullopt;
  if (found->secondary_line) {
    Path& line = secondary_.lines[*found->secondary_line];
    primary_.add(line);
    line.clear();
  }
  return std::move(found->path);
}

void PathCache::notice_dead(Address from, Address to) {
  primary_.cut_at(from, to);
  secondary_.cut_at(from, to);
}

void PathCache::Table::add(const Path& path) {
  for (Path& line : lines) {
    const size_t common =
        static_cast<size_t>(std::mismatch(line.begin(), line.end(), path.begin(), path.end()).first - line.begin());
    if (common == line.size()) {  // the line is a prefix of the path (or free): extend it
      line = path;
      return;
    }
    if (common == path.size()) return;  // the path is a prefix of the line: known already
  }
  lines[victim()] = path;
}

void PathCache::Table::cut_at(Address from, Address to) {
  for (Path& line : lines) {
    for (size_t n = 0; n + 1 < line.size(); ++n) {
      if (line[n] == from && line[n + 1] == to) {
        line.resize(n == 0 ? 0 : n + 1);
        break;
      }
    }
  }
}

size_t PathCache::Table::victim() {
  for (size_t line = 0; line < lines.size(); ++line) {
    if (lines[line].empty()) return line;
  }
  const size_t v = next_victim;
  next_victim = (next_victim + 1) % lines.size();
  return v;
}

}  // namespace mantra::sim::dsr
