// Type-length-value options carried after a fixed header, so that extended
// protocols (ADTFRC's state bits, for one) can ride on a base protocol's
// packets and a base receiver can skip what it does not know.
//
//   +--------+--------+----------------------+
//   |  type  | length |  value (length bytes) |   repeated
//   +--------+--------+----------------------+
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mantra/wire.h"

namespace mantra {

struct WireOption {
  uint8_t type = 0;
  std::vector<uint8_t> value;
};

// Appends `options` as TLVs; returns the number of bytes written.
size_t encode_options(const std::vector<WireOption>& options, Writer& w);

// Reads exactly `length` bytes of TLVs. Fails if an option overruns.
DecodeResult<std::vector<WireOption>> decode_options(Reader& r, size_t length);

}  // namespace mantra
