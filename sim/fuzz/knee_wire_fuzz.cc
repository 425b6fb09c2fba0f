// libFuzzer target for mantra's own wire decoders (core/src/knee/knee_wire.h):
// data headers (LATP's, then the send time; padded to the input's size) and
// reports, checked by round_trip.h. Seed corpus: sim/fuzz/wire-corpus/knee/.
#include <cstddef>
#include <cstdint>

#include "knee/knee_wire.h"
#include "round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::knee;
  const auto bytes = after_selector(data, size);
  if (size > 0 && data[0] % 2 == 0) {
    check_round_trip(bytes, decode_data, [&bytes](const DataHeader& h) {
      std::vector<uint8_t> out;
      encode_data(h, bytes.size(), out);
      return out;
    });
  } else {
    check_round_trip(bytes, decode_report, encode_report);
  }
  return 0;
}
