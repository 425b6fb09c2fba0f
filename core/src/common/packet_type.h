// The first byte of every mantra datagram: which protocol and packet kind.
// Receivers reject datagrams whose type they do not handle.
#pragma once

#include <cstdint>

namespace mantra {

enum class PacketType : uint8_t {
  kCbrData = 0x01,
  kTfrcData = 0x10,
  kTfrcFeedback = 0x11,
  kAdtfrcProbe = 0x12,
  kTfwmfcData = 0x20,
  kTfwmfcSenderReport = 0x21,
  kTfwmfcReceiverReport = 0x22,
};

}  // namespace mantra
