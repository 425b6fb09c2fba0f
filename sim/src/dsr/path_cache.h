// DSR's route cache as ns-2's DSR had it (dsr/mobicache.cc, the cache of
// Broch et al.'s MobiCom '98 runs): two tables of whole paths, each starting
// at this node, with no timeout.
//
//   primary   (30 paths)  routes this node discovered, was given in a reply,
//                         or chose to use
//   secondary (64 paths)  routes it overheard or forwarded (speculative)
//
//   add(path)            ──► primary; a cached path that is a prefix of it is
//                            extended, one that contains it is kept as it is,
//                            else it takes the first empty line, else the
//                            line after the last one replaced (round robin)
//   notice_used(path)    ──► the same into secondary
//   find(dest)           ──► the shortest prefix ending at dest of any path of
//                            either table (primary first, secondary only if
//                            strictly shorter)
//   use(dest)            ──► the same, and a secondary path found moves to
//                            primary (the node is going to use it)
//   notice_dead(a, b)    ──► every path with the link a→b is cut just after a
//                            (removed if a is this node)
//
// Paths never expire by age: a broken link leaves the cache only when a MAC
// failure or a route error names it. A path has no node twice and at most
// kMaxRouteNodes nodes.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "dsr/dsr_header.h"

namespace mantra::sim::dsr {

using Path = std::vector<Address>;

// Removes every loop from `path`: A B C B D becomes A B D (ns-2's compressPath).
void remove_loops(Path& path);

class PathCache {
 public:
  static constexpr size_t kPrimaryPaths = 30;
  static constexpr size_t kSecondaryPaths = 64;

  explicit PathCache(Address self);

  void add(const Path& path);
  void notice_used(const Path& path);
  std::optional<Path> find(Address destination) const;
  std::optional<Path> use(Address destination);
  void notice_dead(Address from, Address to);

  // What the tables hold now (tests, and the dump of a node's state).
  const std::vector<Path>& primary() const { return primary_.lines; }
  const std::vector<Path>& secondary() const { return secondary_.lines; }

 private:
  struct Found {
    Path path;
    std::optional<size_t> secondary_line;  // where it was found, if in secondary
  };
  std::optional<Found> best(Address destination) const;

  struct Table {
    explicit Table(size_t size) : lines(size) {}
    void add(const Path& path);
    void cut_at(Address from, Address to);
    size_t victim();
    std::vector<Path> lines;  // an empty line is a free one
    size_t next_victim = 0;
  };

  Address self_;
  Table primary_{kPrimaryPaths};
  Table secondary_{kSecondaryPaths};
};

}  // namespace mantra::sim::dsr
