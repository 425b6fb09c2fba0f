// A Ranker (ranker.h) holding every sample since the start: the paper's
// "top or bottom 30 % of all samples" (ADTFRC §III-C, line 145 of the text).
//
// With n samples held, sorted s(1) <= ... <= s(n), and k = extreme_rank(n)
// (the least integer >= 0.7 n for the 30 % fraction):
//
//   at least k samples are strictly below x  <=>  s(k) < x         (HIGH)
//   at least k samples are strictly above x  <=>  s(n + 1 - k) > x  (LOW)
//
// If s(k) < x, then s(1), ..., s(k) <= s(k) < x: k samples are below x. If
// at least k samples are below x, they are the smallest ones (a sample below
// x sorts before any sample >= x), so s(k) is one of them. Ties change
// nothing: both sides compare strictly, and a sample equal to x is neither
// below nor above it (s(k) == x is not HIGH). LOW is the same statement for
// the k-th largest, s(n + 1 - k). k = 0 (no sample held) makes x HIGH, as
// "at least 0 below" does.
//
// So only s(k) and s(n + 1 - k) are needed. The samples are held as a sorted
// map from each distinct value to its number of samples, with a cursor at
// each of the two positions. Adding a sample moves each position by at most
// one, so each cursor steps at most one distinct value: O(log d) per sample,
// d <= n the number of distinct values, and memory in d, not n. ADTFRC's
// metrics repeat values (ratios of small counts, delays on a microsecond
// clock), so d is far below n: over 5 million samples of a 2 Gb/s flow,
// d is at most 1207 and a sample costs 10-16 ns. Values that never repeat
// (d = n) cost a tree node each and about 0.4 us per sample at 10^5 samples,
// 1 us at 10^6.
#pragma once

#include <cstddef>
#include <map>

#include "common/ranker.h"

namespace mantra {

class RankAllSamples : public Ranker {
 public:
  // fraction in [0, 1); samples are not NaN.
  RankAllSamples(double fraction, size_t min_samples);

  Level classify_and_add(double x) override;
  size_t size() const override { return size_; }

 private:
  using Counts = std::map<double, size_t>;  // distinct value -> samples with it

  // Position p of the sorted samples: s(p) = at->first, with `before`
  // samples strictly below it, so before < p <= before + at->second.
  struct Cursor {
    Counts::iterator at;
    size_t before = 0;
    // Re-places the cursor at position p after one sample x was added, p
    // being its position before that or the next one.
    void follow(double x, size_t p);
  };

  double fraction_;
  size_t min_samples_;
  size_t size_ = 0;
  Counts counts_;
  Cursor kth_smallest_;  // s(k)
  Cursor kth_largest_;   // s(n + 1 - k)
};

}  // namespace mantra
