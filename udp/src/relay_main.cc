// mantra-relay: an impairment relay for mantra-udp (docs/udp.md, "The relay").
// Exit status: 0 done, 1 a failure at run time, 2 a bad command line.
#include <cstdio>
#include <string>
#include <vector>

#include "relay_command.h"
#include "relay_options.h"

int main(int argc, char** argv) {
  using namespace mantra::udp;
  const std::vector<std::string> args(argv + 1, argv + argc);
  RelayOptions options;
  bool help = args.empty();
  const std::string error = help ? "" : parse_relay(args, options, help);
  if (help) {
    std::fputs(kRelayUsage, stdout);
    return 0;
  }
  if (!error.empty()) {
    std::fprintf(stderr, "mantra-relay: %s\n", error.c_str());
    return 2;
  }
  return run_relay(options);
}
