// libFuzzer target for TF-WMFC's wire decoders (core/src/tfwmfc/tfwmfc_wire.h):
// data packets (padded to the input's size), sender reports and receiver
// reports, checked by round_trip.h. Seed corpus: sim/fuzz/wire-corpus/tfwmfc/.
#include <cstddef>
#include <cstdint>

#include "round_trip.h"
#include "tfwmfc/tfwmfc_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::tfwmfc;
  const auto bytes = after_selector(data, size);
  switch (size > 0 ? data[0] % 3 : 0) {
    case 0:
      check_round_trip(bytes, decode_data, [&bytes](const DataHeader& h) { return encode_data(h, bytes.size()); });
      break;
    case 1:
      check_round_trip(bytes, decode_sender_report, encode_sender_report);
      break;
    default:
      check_round_trip(bytes, decode_receiver_report, encode_receiver_report);
  }
  return 0;
}
