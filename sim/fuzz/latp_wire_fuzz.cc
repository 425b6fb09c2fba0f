// libFuzzer target for LATP's wire decoders (core/src/latp/latp_wire.h): data
// headers (the ones its node agents read and rewrite on every hop, padded to
// the input's size) and feedback packets, checked by round_trip.h. Seed
// corpus: sim/fuzz/wire-corpus/latp/.
#include <cstddef>
#include <cstdint>

#include "latp/latp_wire.h"
#include "round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::latp;
  const auto bytes = after_selector(data, size);
  if (size > 0 && data[0] % 2 == 0) {
    check_round_trip(bytes, decode_data, [&bytes](const DataHeader& h) {
      std::vector<uint8_t> out;
      encode_data(h, bytes.size(), out);
      return out;
    });
  } else {
    check_round_trip(bytes, decode_feedback, encode_feedback);
  }
  return 0;
}
