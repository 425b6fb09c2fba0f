// The list of protocols mantra knows. Each entry parses its parameters
// strictly and builds the endpoint; add a protocol by adding an entry.
#include "mantra/registry.h"

#include <functional>
#include <utility>

#include "adtfrc/adtfrc_receiver.h"
#include "adtfrc/adtfrc_sender.h"
#include "cbr/cbr.h"
#include "knee/knee_law.h"
#include "knee/knee_receiver.h"
#include "latp/latp_receiver.h"
#include "latp/latp_sender.h"
#include "tfrc/tfrc_receiver.h"
#include "tfrc/tfrc_sender.h"
#include "tfwmfc/tfwmfc_receiver.h"
#include "tfwmfc/tfwmfc_sender.h"

namespace mantra {
namespace {

struct ProtocolEntry {
  std::string name;
  std::function<Made<Sender>(const Params&)> sender;
  std::function<Made<Receiver>(const Params&)> receiver;
  bool fixed_rate = false;    // sends at a rate it is given (`rate_bps`), adapting to nothing
  bool latp_stamped = false;  // its data packets carry LATP's rate field for the node agents
};

// A protocol whose sender is the rate sender with `Law` and whose receiver
// is `R`; each parses its parameters strictly (Law::parse, R::parse).
template <typename Law, typename R>
ProtocolEntry rate_protocol(std::string name, bool fixed_rate = false, bool latp_stamped = false) {
  return {std::move(name),
          [](const Params& p) -> Made<Sender> {
            typename Law::Config config;
            std::string error = Law::parse(p, config);
            if (!error.empty()) return {nullptr, error};
            return {std::make_unique<RateSenderWith<Law>>(config), {}};
          },
          [](const Params& p) -> Made<Receiver> {
            typename R::Config config;
            std::string error = R::parse(p, config);
            if (!error.empty()) return {nullptr, error};
            return {std::make_unique<R>(config), {}};
          },
          fixed_rate, latp_stamped};
}

const std::vector<ProtocolEntry>& protocols() {
  static const std::vector<ProtocolEntry> list = {
      rate_protocol<tfrc::TfrcLaw, tfrc::TfrcReceiver>("tfrc"),
      rate_protocol<adtfrc::AdtfrcLaw, adtfrc::AdtfrcReceiver>("adtfrc"),
      rate_protocol<latp::LatpLaw, latp::LatpReceiver>("latp", false, true),
      rate_protocol<tfwmfc::TfwmfcLaw, tfwmfc::TfwmfcReceiver>("tfwmfc"),
      rate_protocol<tfwmfc::TfrcLossLaw, tfwmfc::TfwmfcReceiver>("tfrc-loss"),
      rate_protocol<cbr::CbrLaw, cbr::CbrReceiver>("cbr", true),
      rate_protocol<knee::KneeLaw, knee::KneeReceiver>("mantra", false, true),
  };
  return list;
}

const ProtocolEntry* find(std::string_view name) {
  for (const auto& e : protocols()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

Made<Sender> make_sender(std::string_view protocol, const Params& params) {
  const ProtocolEntry* e = find(protocol);
  if (!e) return {nullptr, "unknown protocol '" + std::string(protocol) + "'"};
  return e->sender(params);
}

Made<Receiver> make_receiver(std::string_view protocol, const Params& params) {
  const ProtocolEntry* e = find(protocol);
  if (!e) return {nullptr, "unknown protocol '" + std::string(protocol) + "'"};
  return e->receiver(params);
}

bool is_fixed_rate(std::string_view protocol) {
  const ProtocolEntry* e = find(protocol);
  return e && e->fixed_rate;
}

bool is_latp_stamped(std::string_view protocol) {
  const ProtocolEntry* e = find(protocol);
  return e && e->latp_stamped;
}

std::vector<std::string> protocol_names() {
  std::vector<std::string> names;
  for (const auto& e : protocols()) names.push_back(e.name);
  return names;
}

}  // namespace mantra
