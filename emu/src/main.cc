// mantra-emu: a run spec's network in ns-3's real time, with real programs in
// network namespaces at its endpoint nodes (docs/emu.md).
//
//   mantra-emu SPEC.json [--endpoint NODE=NAMESPACE]... [--real-flow INDEX]...
//              [--max-lag-ms MS] [--out RESULT.json] [-- COMMAND [ARGS...]]
//   mantra-emu --check SPEC.json [...]   (spec and options checked, nothing run, no root needed)
//   mantra-emu --version
//
// Exit status: 0 done; 2 bad input, or not root (one line on stderr); 1 a
// failure, no result written; 3 the result was written, then ns-3 faulted
// tearing down; 4 the result was written, but the lag's p99 went beyond
// --max-lag-ms (its numbers are not the simulator's); 5 the result was
// written, but the command did not exit 0 by itself. SIGINT or SIGTERM stop
// the run early: the result is written, marked with the time it stopped.
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu_options.h"
#include "emu_run.h"
#include "endpoint_namespace.h"
#include "mantra_version.h"
#include "result_file.h"
#include "run.h"
#include "spec/spec.h"

namespace {

constexpr int kBadInput = 2;
constexpr int kFailed = 1;
constexpr int kTeardownFault = 3;
constexpr int kBehindRealTime = 4;
constexpr int kCommandFailed = 5;

volatile std::sig_atomic_t g_tearing_down = 0;

void write_text(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_fatal_signal(int) {
  write_text(g_tearing_down ? "mantra-emu: ns-3 faulted while tearing down the finished run; the result is complete\n"
                            : "mantra-emu: the emulation died before its result was written; no result\n");
  ::_exit(g_tearing_down ? kTeardownFault : kFailed);
}

extern "C" void on_stop_signal(int) { mantra::emu::g_stop_requested.store(true); }

int usage(const std::string& why) {
  std::cerr << "mantra-emu: " << why
            << "\nusage: mantra-emu [--check] SPEC.json [--endpoint NODE=NAMESPACE]... [--real-flow INDEX]... "
               "[--max-lag-ms MS] [--out RESULT.json] [-- COMMAND [ARGS...]] | --version\n";
  return kBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  mantra::emu::EmuOptions options;
  try {
    options = mantra::emu::parse_options(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  if (options.version) {
    std::cout << "mantra-emu " << kMantraCommit << " (ns-3 " << kNs3Version << ")\n";
    return 0;
  }
  std::stringstream text;
  {
    std::ifstream in(options.spec_path);
    if (!in) return usage("cannot read " + options.spec_path);
    text << in.rdbuf();
  }
  mantra::sim::Spec spec;
  try {
    spec = mantra::sim::parse_spec(mantra::sim::read_spec_json(text.str()));
    mantra::emu::check_against_spec(options, spec);
  } catch (const mantra::sim::SpecError& e) {
    std::cerr << "mantra-emu: " << options.spec_path << ": " << e.what() << "\n";
    return kBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "mantra-emu: " << e.what() << "\n";
    return kBadInput;
  }
  if (options.check_only) return 0;
  if (!options.endpoints.empty()) {
    if (const std::string missing = mantra::emu::missing_privilege(); !missing.empty()) {
      std::cerr << "mantra-emu: " << missing << "\n";
      return kBadInput;
    }
  }

  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_fatal_signal);
  for (int sig : {SIGINT, SIGTERM}) std::signal(sig, on_stop_signal);
  mantra::emu::EmuSession session;
  mantra::emu::EmuOutcome outcome;
  try {
    outcome = mantra::emu::run_emulation(spec, options, session);
  } catch (const std::exception& e) {
    std::cerr << "mantra-emu: emulation failed: " << e.what() << "\n";
    return kFailed;
  }
  if (!mantra::sim::write_result(outcome.result.dump(), options.out_path, "mantra-emu")) return kFailed;
  g_tearing_down = 1;
  mantra::sim::tear_down_simulation();
  session = {};  // the devices on the TAPs are gone: the namespaces can go
  if (!outcome.within_bound) {
    const auto& lag = outcome.result["emulation"]["lag_ms"];
    std::cerr << "mantra-emu: real time fell behind: the lag's p99 was " << lag["p99"].dump() << " ms, above the "
              << options.max_lag_ms << " ms bound (--max-lag-ms); the result says so\n";
    return kBehindRealTime;
  }
  if (!outcome.command_ok) {
    std::cerr << "mantra-emu: the command did not exit 0 by itself (result: emulation.command)\n";
    return kCommandFailed;
  }
  return 0;
}
