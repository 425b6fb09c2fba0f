// The receiver's measured loss for the rate sender's safety floor
// (rate/rate_sender.h), where a protocol's own report does not carry it:
// the loss event rate over every loss the receiver detected (RFC 5348 §5,
// whatever the protocol then made of each loss), in parts per 10^9.
//
// TFRC's and ADTFRC's feedback carry it as a TLV option of this type; LATP's
// feedback as 4 bytes after its fixed 20. A receiver sends it only with its
// `floor_report` parameter 1 (off in every reproduction, so their packets
// stay the papers' sizes; mantra-udp turns it on with the floor).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/options.h"
#include "mantra/params.h"

namespace mantra {

constexpr uint8_t kFloorLossOptionType = 0xF1;

// Reads a receiver's `floor_report` parameter (0 or 1, default 0). Every
// registered receiver takes it, so a driver can ask for the report without
// knowing the protocol; TF-WMFC's and CBR's receivers have nothing to add
// (TF-WMFC's reports carry their loss counts; CBR sends no feedback).
bool read_floor_report(ParamReader& r);

// The loss event rate in parts per 10^9, rounded, within [0, 10^9].
uint32_t floor_loss_ppb(double loss_event_rate);
double floor_loss_from_ppb(uint32_t ppb);

WireOption encode_floor_loss_option(double loss_event_rate);
// The floor's loss among `options`, if there is one; malformed: nullopt.
std::optional<double> find_floor_loss(const std::vector<WireOption>& options);

}  // namespace mantra
