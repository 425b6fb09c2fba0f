// The property every wire decoder's fuzz target checks: any bytes are read
// or refused with a reason (never read past their end: AddressSanitizer), and
// what is read comes back through encode: encode(decode(x)) decodes again, to
// a value that encodes to the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

template <typename Decode, typename Encode>
void check_round_trip(std::span<const uint8_t> bytes, Decode decode, Encode encode) {
  const auto first = decode(bytes);
  if (!first) {
    if (first.error().empty()) __builtin_trap();  // a refusal always says why
    return;
  }
  const std::vector<uint8_t> once = encode(*first);
  const auto second = decode(std::span<const uint8_t>(once));
  if (!second) __builtin_trap();
  if (encode(*second) != once) __builtin_trap();
}

// The first input byte picks one of `n` decoders; the rest is the packet.
inline std::span<const uint8_t> after_selector(const uint8_t* data, size_t size) {
  return size > 0 ? std::span<const uint8_t>(data + 1, size - 1) : std::span<const uint8_t>();
}
