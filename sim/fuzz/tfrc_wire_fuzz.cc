// libFuzzer target for TFRC's wire decoders (core/src/tfrc/tfrc_wire.h): data
// packets (padded to the input's size) and feedback packets with their TLV
// options, checked by round_trip.h. Seed corpus: sim/fuzz/wire-corpus/tfrc/.
#include <cstddef>
#include <cstdint>

#include "round_trip.h"
#include "tfrc/tfrc_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::tfrc;
  const auto bytes = after_selector(data, size);
  if (size > 0 && data[0] % 2 == 0) {
    check_round_trip(bytes, decode_data, [&bytes](const DataHeader& h) { return encode_data(h, bytes.size()); });
  } else {
    check_round_trip(bytes, decode_feedback, encode_feedback);
  }
  return 0;
}
