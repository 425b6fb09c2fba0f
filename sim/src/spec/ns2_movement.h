// The ns-2 movement file (the output of ns-2's setdest, the format MANET
// papers' scenarios came in), checked before ns-3's Ns2MobilityHelper replays
// it: that helper skips a line it cannot read with a log message and runs on,
// so a typo would silently change the scenario. Accepted lines, blank lines
// and '#' comments aside:
//   $node_(i) set X_ <x>            (also Y_, Z_)
//   $ns_ at <t> "$node_(i) setdest <x> <y> <speed>"
//   $god_ ...                       (ns-2's GOD hints: skipped, as ns-3 does)
// No ns-3 here (the spec reader's rule).
#pragma once

#include <string>
#include <vector>

namespace mantra::sim {

// The nodes the file moves, ascending; SpecError("mobility.file", "line N:
// ...") on a line it cannot read, a node index not below `nodes`, a negative
// time or speed, or a file that cannot be opened.
std::vector<int> check_ns2_movement_file(const std::string& path, int nodes);

}  // namespace mantra::sim
