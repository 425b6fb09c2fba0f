// mantra-sim: runs one simulation from a JSON run spec and writes the result.
//
//   mantra-sim SPEC.json [--out RESULT.json]     (SPEC "-" reads stdin)
//   mantra-sim --check SPEC.json                  (validate only, run nothing)
//   mantra-sim --check --json SPEC.json           (the same; the verdict as JSON on stdout:
//                                                  {"ok": true} or {"ok": false, "key": K,
//                                                  "message": M}, K "" for the whole spec)
//   mantra-sim --version                          (mantra commit and ns-3 version)
//
// Exit status: 0 done; 2 bad input (one line on stderr naming the key);
// 1 a failure inside the simulation, no result written; 3 the result was
// written complete, then ns-3 faulted while tearing the simulation down.
//
// The result is written before Simulator::Destroy, so a fault in ns-3's
// teardown cannot lose a finished run. A fatal signal (ns-3's NS_FATAL_ERROR
// and NS_ASSERT abort) ends the process with one line saying in which phase
// it came and whether the result exists. MANTRA_SIM_FAULT=run|teardown
// injects such an abort, for the tests of this behaviour.
#include <ns3/nstime.h>
#include <ns3/simulator.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "mantra_version.h"
#include "result_file.h"
#include "run.h"
#include "spec/spec.h"

namespace {

int usage(const std::string& why) {
  std::cerr << "mantra-sim: " << why
            << "\nusage: mantra-sim [--check [--json]] SPEC.json [--out RESULT.json] | --version\n";
  return 2;
}

// What a fatal signal says, set before each phase (read by the handler only).
// The handler can run after main has returned (an abort in an exit handler or
// a static destructor), so g_result_place points at storage that outlives main:
// a string literal or an argv entry, never a local std::string.
volatile std::sig_atomic_t g_phase = 0;
enum Phase : int { kRunning = 1, kTearingDown = 2 };
const char* g_result_place = "standard output";

void write_text(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_fatal_signal(int sig) {
  const char* what = sig == SIGABRT ? "abort" : sig == SIGSEGV ? "segmentation fault" : "fatal signal";
  if (g_phase == kTearingDown) {
    write_text("mantra-sim: ns-3 faulted (");
    write_text(what);
    write_text(") while tearing down the finished simulation; the result is complete in ");
    write_text(g_result_place);
    write_text("\n");
    ::_exit(3);
  }
  write_text("mantra-sim: the simulation died (");
  write_text(what);
  write_text(") before its result was written; no result\n");
  ::_exit(1);
}

void catch_fatal_signals() {
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_fatal_signal);
}

}  // namespace

int main(int argc, char** argv) {
  std::string spec_path, out_path;
  const char* out_arg = nullptr;  // argv's copy of out_path, for the signal handler
  bool check_only = false, check_json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--version") {
      std::cout << "mantra-sim " << kMantraCommit << " (ns-3 " << kNs3Version << ")\n";
      return 0;
    } else if (arg == "--out") {
      if (++i >= argc) return usage("--out needs a file");
      out_path = argv[i];
      out_arg = argv[i];
    } else if (arg == "--check") {
      check_only = true;
    } else if (arg == "--json") {
      check_json = true;
    } else if (arg.rfind("--", 0) == 0) {
      return usage("unknown option " + arg);
    } else if (spec_path.empty()) {
      spec_path = arg;
    } else {
      return usage("more than one spec given");
    }
  }
  if (spec_path.empty()) return usage("no spec given");
  if (check_json && !check_only) return usage("--json goes with --check");
  const char* fault_env = std::getenv("MANTRA_SIM_FAULT");
  const std::string fault = fault_env ? fault_env : "";
  if (!fault.empty() && fault != "run" && fault != "teardown") {
    return usage("MANTRA_SIM_FAULT must be run or teardown, not '" + fault + "'");
  }

  std::stringstream text;
  if (spec_path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(spec_path);
    if (!in) return usage("cannot read " + spec_path);
    text << in.rdbuf();
  }
  mantra::sim::Spec spec;
  try {
    try {
      spec = mantra::sim::parse_spec(mantra::sim::read_spec_json(text.str()));
    } catch (const mantra::sim::SpecError&) {  // malformed JSON included
      throw;
    } catch (const std::exception& e) {  // a bug: spec.cc raises only SpecError (sim/fuzz/ checks)
      throw mantra::sim::SpecError("", std::string("cannot read the spec (internal error): ") + e.what());
    }
  } catch (const mantra::sim::SpecError& e) {
    if (check_json) {
      const nlohmann::json verdict = {{"ok", false}, {"key", e.key()}, {"message", e.message()}};
      std::cout << verdict.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cerr << "mantra-sim: " << spec_path << ": " << e.what() << "\n";
    }
    return 2;
  }
  if (check_only) {
    if (check_json) std::cout << nlohmann::json{{"ok", true}}.dump() << "\n";
    return 0;
  }

  catch_fatal_signals();
  g_phase = kRunning;
  if (fault == "run") ns3::Simulator::Schedule(ns3::Seconds(spec.duration_s / 2), &std::abort);
  nlohmann::json result;
  try {
    result = mantra::sim::run_simulation(spec);
  } catch (const std::exception& e) {
    std::cerr << "mantra-sim: simulation failed: " << e.what() << "\n";
    return 1;
  }
  if (!mantra::sim::write_result(result.dump(), out_path, "mantra-sim")) return 1;
  if (out_arg && *out_arg) g_result_place = out_arg;
  g_phase = kTearingDown;
  if (fault == "teardown") ns3::Simulator::ScheduleDestroy(&std::abort);
  mantra::sim::tear_down_simulation();
  return 0;
}
