// libFuzzer target for the run-spec reader: read_spec_json + parse_spec must
// turn every input into a Spec or a SpecError (malformed JSON included), and
// never crash, abort, hang, leak or hit undefined behaviour. Anything else
// escaping is a bug: it is not caught, so the fuzzer reports it.
//
// Built by sim/fuzz/CMakeLists.txt with clang -fsanitize=fuzzer,address,undefined;
// run by scripts/fuzz.sh spec (seed corpus and dictionary in sim/fuzz/).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "spec/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const mantra::sim::Spec spec = mantra::sim::parse_spec(mantra::sim::read_spec_json(text));
    // A spec that passes holds what the simulator relies on.
    if (spec.flows.empty() || spec.duration_s <= 0 || spec.topology.node_count() < 2 ||
        spec.topology.node_count() > 2000 || spec.interval_s <= 0) {
      __builtin_trap();
    }
    (void)spec.source.dump();  // the result echoes the spec: must not recurse too deep or throw
  } catch (const nlohmann::json::parse_error&) {
  } catch (const mantra::sim::SpecError& e) {
    // One line: the message printed must not break the "one line on stderr" rule.
    for (const char* p = e.what(); *p; ++p) {
      if (*p == '\n' || *p == '\r') __builtin_trap();
    }
  }
  return 0;
}
