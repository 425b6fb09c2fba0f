// One endpoint's side of the emulation, in Linux: a network namespace and a
// TAP device in it, holding the simulated node's own address, so a program
// there talks as the node (no ns-3 here; emu_port.h is the node's side).
//
//   root netns:  open /dev/net/tun (TAP, no packet info) ─► the fd stays with mantra-emu
//                ip link set TAP netns NS
//   netns NS:    TAP renamed mantra0, ADDRESS/PREFIX on it, up; lo up;
//                default route on mantra0 (every destination asked for by ARP:
//                the node answers for all of them, emu_port.h);
//                IPv6 off on mantra0 (no router solicitations into the node);
//                ephemeral ports 32768-49151 (49152-65535 are the simulated
//                node's own sockets' ephemeral ports, emu_port.h)
//
// The namespace is created if it does not exist and deleted at the end only
// then; the TAP goes when its fd is closed. Needs root (CAP_NET_ADMIN and
// CAP_SYS_ADMIN): missing_privilege() says what is missing in one line.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace mantra::emu {

// "" when this process may make namespaces and TAPs; else what is missing.
std::string missing_privilege();

// A namespace name mantra-emu accepts: 1-32 of [A-Za-z0-9_.-], not "." or "..".
bool valid_namespace_name(const std::string& name);

class EndpointNamespace {
 public:
  // Makes everything above; throws std::runtime_error with one line on failure
  // (what it has made by then is undone).
  EndpointNamespace(std::string name, const std::string& address, int prefix_bits);
  ~EndpointNamespace();
  EndpointNamespace(const EndpointNamespace&) = delete;
  EndpointNamespace& operator=(const EndpointNamespace&) = delete;

  int tap_fd() const { return fd_; }
  // The TAP's MAC address, as the namespace's kernel uses it.
  const std::array<uint8_t, 6>& mac() const { return mac_; }
  const std::string& name() const { return name_; }
  bool created() const { return created_; }

  static constexpr const char* kInterface = "mantra0";

 private:
  void undo() noexcept;

  std::string name_;
  int fd_ = -1;
  bool created_ = false;
  std::array<uint8_t, 6> mac_{};
};

}  // namespace mantra::emu
