// mantra-sim: runs one simulation from a JSON run spec and writes the result.
//
//   mantra-sim SPEC.json [--out RESULT.json]     (SPEC "-" reads stdin)
//   mantra-sim --check SPEC.json                  (validate only, run nothing)
//
// Exit status: 0 done; 2 bad input (one line on stderr naming the key);
// 1 a failure inside the simulation.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run.h"
#include "spec.h"

namespace {

int usage(const std::string& why) {
  std::cerr << "mantra-sim: " << why << "\nusage: mantra-sim [--check] SPEC.json [--out RESULT.json]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string spec_path, out_path;
  bool check_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out") {
      if (++i >= argc) return usage("--out needs a file");
      out_path = argv[i];
    } else if (arg == "--check") {
      check_only = true;
    } else if (arg.rfind("--", 0) == 0) {
      return usage("unknown option " + arg);
    } else if (spec_path.empty()) {
      spec_path = arg;
    } else {
      return usage("more than one spec given");
    }
  }
  if (spec_path.empty()) return usage("no spec given");

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
    spec = mantra::sim::parse_spec(nlohmann::json::parse(text.str()));
  } catch (const nlohmann::json::parse_error& e) {
    std::cerr << "mantra-sim: " << spec_path << ": malformed JSON: " << e.what() << "\n";
    return 2;
  } catch (const mantra::sim::SpecError& e) {
    std::cerr << "mantra-sim: " << spec_path << ": " << e.what() << "\n";
    return 2;
  }
  if (check_only) return 0;

  nlohmann::json result;
  try {
    result = mantra::sim::run_simulation(spec);
  } catch (const std::exception& e) {
    std::cerr << "mantra-sim: simulation failed: " << e.what() << "\n";
    return 1;
  }
  const std::string doc = result.dump();
  if (out_path.empty()) {
    std::cout << doc << "\n";
    return 0;
  }
  const std::string tmp = out_path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!(out << doc << "\n")) {
      std::cerr << "mantra-sim: cannot write " << tmp << "\n";
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), out_path.c_str()) != 0) {
    std::cerr << "mantra-sim: cannot write " << out_path << "\n";
    return 1;
  }
  return 0;
}
