// mantra-udp: the core's protocols over real UDP sockets (docs/udp.md).
//
//   mantra-udp recv [--bind ADDR:PORT] [--out FILE] ...
//   mantra-udp send HOST:PORT --protocol P [--set key=value] [--file F | --stdin | --rate R] ...
//
// Exit status: 0 done, 1 a failure at run time, 2 a bad command line.
#include <cstdio>
#include <string>
#include <vector>

#include "options.h"
#include "recv_command.h"
#include "send_command.h"

int main(int argc, char** argv) {
  using namespace mantra::udp;
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || (args[0] != "send" && args[0] != "recv")) {
    std::fputs(kUsage, args.empty() || args[0] == "-h" || args[0] == "--help" ? stdout : stderr);
    return args.empty() || args[0] == "-h" || args[0] == "--help" ? 0 : 2;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  Parsed parsed;
  if (args[0] == "send") {
    SendOptions o;
    parsed = parse_send(rest, o);
    if (parsed.error.empty() && !parsed.help) return run_send(o);
  } else {
    RecvOptions o;
    parsed = parse_recv(rest, o);
    if (parsed.error.empty() && !parsed.help) return run_recv(o);
  }
  if (parsed.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::fprintf(stderr, "mantra-udp %s: %s\n", args[0].c_str(), parsed.error.c_str());
  return 2;
}
