// libFuzzer target for our DSR's header decoder (sim/src/dsr/dsr_header.h):
// any bytes must be read as a header or refused with a reason, never read
// past their end; a header read must come back the same through encode and
// decode, with its size what size_bytes() says. Seed corpus: sim/fuzz/dsr-corpus/.
#include <cstddef>
#include <cstdint>
#include <span>

#include "dsr/dsr_header.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mantra::sim::dsr;
  const Decoded d = decode(std::span<const uint8_t>(data, size));
  if (!d.header) {
    if (d.error.empty()) __builtin_trap();  // a refusal always says why
    return 0;
  }
  if (d.consumed > size) __builtin_trap();
  const std::vector<uint8_t> again = encode(*d.header);
  if (again.size() != d.header->size_bytes()) __builtin_trap();
  const Decoded back = decode(again);
  if (!back.header || !(*back.header == *d.header) || back.consumed != again.size()) __builtin_trap();
  return 0;
}
