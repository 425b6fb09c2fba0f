// DSR's route cache (dsr/path_cache.h), ns-2's MobiCache: paths in, the
// shortest prefix out, a secondary path promoted when used, a dead link cut,
// round-robin replacement when a table is full, and no expiry by age.
#include <gtest/gtest.h>

#include "dsr/path_cache.h"

namespace mantra::sim::dsr {
namespace {

TEST(DsrPathCache, AddExtendsAPrefixAndKeepsAContainedPath) {
  PathCache c(1);
  c.add({1, 2, 3});
  c.add({1, 2, 3, 4});  // extends [1 2 3]
  c.add({1, 2});        // contained in [1 2 3 4]
  EXPECT_EQ(c.primary()[0], (Path{1, 2, 3, 4}));
  EXPECT_TRUE(c.primary()[1].empty());
  c.add({2, 3});  // does not start at this node: refused
  EXPECT_TRUE(c.primary()[1].empty());
}

TEST(DsrPathCache, FindGivesTheShortestPrefixAndUseMovesASecondaryPathToPrimary) {
  PathCache c(1);
  c.add({1, 2, 3, 4, 5});
  c.notice_used({1, 6, 5});
  EXPECT_EQ(c.find(4), (Path{1, 2, 3, 4}));
  EXPECT_EQ(c.find(5), (Path{1, 6, 5}));         // secondary, strictly shorter
  EXPECT_EQ(c.secondary()[0], (Path{1, 6, 5}));  // not used: stays
  EXPECT_EQ(c.use(5), (Path{1, 6, 5}));
  EXPECT_TRUE(c.secondary()[0].empty());  // used: moved to primary
  EXPECT_EQ(c.primary()[1], (Path{1, 6, 5}));
  EXPECT_FALSE(c.use(9));
}

TEST(DsrPathCache, ADeadLinkCutsEveryPathJustBeforeItAndRemovesOnesStartingWithIt) {
  PathCache c(1);
  c.add({1, 2, 3, 4});
  c.add({1, 3, 4, 5});
  c.notice_used({1, 7, 3, 4});
  c.notice_dead(3, 4);
  EXPECT_EQ(c.primary()[0], (Path{1, 2, 3}));
  EXPECT_EQ(c.primary()[1], (Path{1, 3}));
  EXPECT_EQ(c.secondary()[0], (Path{1, 7, 3}));
  c.notice_dead(1, 2);
  EXPECT_TRUE(c.primary()[0].empty());
  EXPECT_FALSE(c.find(4));
}

TEST(DsrPathCache, AFullTableReplacesItsLinesRoundRobinAndNothingExpiresByAge) {
  PathCache c(1);
  for (Address d = 100; d < 100 + PathCache::kPrimaryPaths; ++d) c.add({1, d});
  c.add({1, 500});  // full: line 0 goes
  c.add({1, 501});  // then line 1
  EXPECT_EQ(c.primary()[0], (Path{1, 500}));
  EXPECT_EQ(c.primary()[1], (Path{1, 501}));
  EXPECT_FALSE(c.find(100));
  EXPECT_FALSE(c.find(101));
  EXPECT_EQ(c.find(102), (Path{1, 102}));  // no clock at all: age never removes a path
}

TEST(DsrPathCache, LoopsAreCutOut) {
  Path p{1, 2, 3, 2, 4, 5, 4, 6};
  remove_loops(p);
  EXPECT_EQ(p, (Path{1, 2, 4, 6}));
}

}  // namespace
}  // namespace mantra::sim::dsr
