// libFuzzer target for ADTFRC's wire decoders (core/src/adtfrc/adtfrc_wire.h):
// probe packets (round_trip.h) and the state report found among a feedback
// packet's options (read or refused, never past the option). Seed corpus:
// sim/fuzz/wire-corpus/adtfrc/.
#include <cstddef>
#include <cstdint>

#include "adtfrc/adtfrc_wire.h"
#include "round_trip.h"
#include "tfrc/tfrc_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra;
  const auto bytes = after_selector(data, size);
  if (size > 0 && data[0] % 2 == 0) {
    check_round_trip(bytes, adtfrc::decode_probe, adtfrc::encode_probe);
  } else if (const auto fb = tfrc::decode_feedback(bytes)) {
    if (const auto report = adtfrc::find_state_option(fb->options)) {
      const auto again = adtfrc::find_state_option({adtfrc::encode_state_option(*report)});
      if (!again || again->state != report->state || again->urgent != report->urgent) __builtin_trap();
    }
  }
  return 0;
}
