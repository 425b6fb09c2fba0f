// The list of protocols mantra knows. Each entry parses its parameters
// strictly and builds the endpoint; add a protocol by adding an entry.
#include "mantra/registry.h"

#include <functional>

#include "adtfrc/adtfrc_receiver.h"
#include "adtfrc/adtfrc_sender.h"
#include "cbr/cbr.h"
#include "latp/latp_receiver.h"
#include "latp/latp_sender.h"
#include "tfrc/tfrc_receiver.h"
#include "tfrc/tfrc_sender.h"

namespace mantra {
namespace {

struct ProtocolEntry {
  std::string name;
  std::function<Made<Sender>(const Params&)> sender;
  std::function<Made<Receiver>(const Params&)> receiver;
  bool fixed_rate = false;  // sends at a rate it is given (`rate_bps`), adapting to nothing
};

// Builds an endpoint of type E from a config C parsed by P.
template <typename Base, typename E, typename C, typename P>
Made<Base> build(const Params& params, P parse) {
  C config;
  std::string error = parse(params, config);
  if (!error.empty()) return {nullptr, error};
  return {std::make_unique<E>(config), {}};
}

const std::vector<ProtocolEntry>& protocols() {
  static const std::vector<ProtocolEntry> list = {
      {"tfrc",
       [](const Params& p) { return build<Sender, tfrc::TfrcSender, tfrc::SenderConfig>(p, tfrc::TfrcSender::parse); },
       [](const Params& p) {
         return build<Receiver, tfrc::TfrcReceiver, tfrc::ReceiverConfig>(p, tfrc::TfrcReceiver::parse);
       }},
      {"adtfrc",
       [](const Params& p) {
         return build<Sender, adtfrc::AdtfrcSender, adtfrc::SenderConfig>(p, adtfrc::AdtfrcSender::parse);
       },
       [](const Params& p) {
         return build<Receiver, adtfrc::AdtfrcReceiver, adtfrc::ReceiverConfig>(p, adtfrc::AdtfrcReceiver::parse);
       }},
      {"latp",
       [](const Params& p) { return build<Sender, latp::LatpSender, latp::SenderConfig>(p, latp::LatpSender::parse); },
       [](const Params& p) {
         return build<Receiver, latp::LatpReceiver, latp::ReceiverConfig>(p, latp::LatpReceiver::parse);
       }},
      {"cbr", [](const Params& p) { return build<Sender, cbr::CbrSender, cbr::CbrConfig>(p, cbr::CbrSender::parse); },
       [](const Params& p) -> Made<Receiver> {
         std::string error = ParamReader(p).finish();  // the sink takes no parameters
         if (!error.empty()) return {nullptr, error};
         return {std::make_unique<cbr::CbrReceiver>(), {}};
       },
       true},
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

std::vector<std::string> protocol_names() {
  std::vector<std::string> names;
  for (const auto& e : protocols()) names.push_back(e.name);
  return names;
}

}  // namespace mantra
