// The network states ADTFRC tells apart (Fu, Meng, Lu, §III-A), and the
// congestion rules it can identify them with (§III-D compares the three).
#pragma once

#include <cstdint>
#include <string_view>

namespace mantra::adtfrc {

// Receiver-identified states. DISCONNECTION is not here: the sender infers it
// from a retransmission (nofeedback) timeout outside CONGESTION.
enum class NetworkState : uint8_t {
  kNormal = 0,
  kCongestion = 1,
  kRouteChange = 2,
  kChannelError = 3,
};

constexpr std::string_view state_name(NetworkState s) {
  switch (s) {
    case NetworkState::kCongestion:
      return "cong";
    case NetworkState::kRouteChange:
      return "rtchg";
    case NetworkState::kChannelError:
      return "cherr";
    case NetworkState::kNormal:
      break;
  }
  return "normal";
}

// Which metrics identify congestion: both IDD HIGH and STT LOW (the paper's
// multi-metric rule), or one of them alone (its single-metric baselines).
enum class CongestionRule : uint8_t { kMulti = 0, kIddOnly = 1, kSttOnly = 2 };
constexpr int kCongestionRules = 3;

constexpr std::string_view rule_name(CongestionRule r) {
  switch (r) {
    case CongestionRule::kIddOnly:
      return "idd";
    case CongestionRule::kSttOnly:
      return "stt";
    case CongestionRule::kMulti:
      break;
  }
  return "multi";
}

}  // namespace mantra::adtfrc
