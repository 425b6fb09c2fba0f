// libFuzzer target for mantra-udp's own decoders (udp/src/session_wire.h,
// app_frame.h): the trailer, the session messages (hello, accept, refuse,
// bye), checked by round_trip.h, and the application frame (read or refused,
// its bytes within the datagram). Seed corpus: sim/fuzz/wire-corpus/session/.
#include <cstddef>
#include <cstdint>

#include "app_frame.h"
#include "round_trip.h"
#include "session_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::udp;
  const auto bytes = after_selector(data, size);
  switch (size > 0 ? data[0] % 6 : 0) {
    case 0:
      check_round_trip(bytes, decode_hello, encode_hello);
      break;
    case 1:
      check_round_trip(bytes, decode_accept, encode_accept);
      break;
    case 2:
      check_round_trip(bytes, decode_refuse, encode_refuse);
      break;
    case 3:
      check_round_trip(bytes, decode_bye, encode_bye);
      break;
    case 4:
      if (const auto split = split_trailer(bytes)) {
        if (split->second.size() + kTrailerBytes != bytes.size()) __builtin_trap();
        std::vector<uint8_t> again(split->second.begin(), split->second.end());
        append_trailer(again, split->first);
        if (!std::equal(again.begin(), again.end(), bytes.begin(), bytes.end())) __builtin_trap();
      }
      break;
    default: {
      const size_t header = bytes.empty() ? 0 : bytes[0] % 64;
      if (const auto f = read_frame(bytes, header)) {
        if (f->bytes.data() < bytes.data() + header + kFrameBytes ||
            f->bytes.data() + f->bytes.size() > bytes.data() + bytes.size())
          __builtin_trap();
      }
    }
  }
  return 0;
}
