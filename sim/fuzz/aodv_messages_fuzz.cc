// libFuzzer target for our AODV's message decoder (sim/src/aodv/aodv_messages.h):
// any bytes must be read as one message or refused with a reason; a message
// read must come back the same through encode and decode, its size what
// size_bytes() says. Seed corpus: sim/fuzz/aodv-corpus/.
#include <cstddef>
#include <cstdint>
#include <span>

#include "aodv/aodv_messages.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::sim::aodv;
  const Decoded d = decode(std::span<const uint8_t>(data, size));
  if (!d.message) {
    if (d.error.empty()) __builtin_trap();  // a refusal always says why
    return 0;
  }
  const std::vector<uint8_t> again = encode(*d.message);
  if (again.size() != size_bytes(*d.message) || again.size() != size) __builtin_trap();
  const Decoded back = decode(again);
  if (!back.message || !(*back.message == *d.message)) __builtin_trap();
  return 0;
}
