#include "endpoint_namespace.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace mantra::emu {
namespace {

constexpr size_t kMaxNamespaceName = 32;
constexpr const char* kEphemeralPorts = "32768 49151";  // below ns-3's own (49152-65535)

// Runs `ip ARGS...` (or another program), waits; on failure throws one line
// with the command and the first line of what it said on stderr.
void run(const std::vector<std::string>& argv) {
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(err_pipe[1]);
  std::string said;
  char buf[512];
  ssize_t n = 0;
  while ((n = ::read(err_pipe[0], buf, sizeof buf)) > 0) said.append(buf, static_cast<size_t>(n));
  ::close(err_pipe[0]);
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  if (spawned != 0) throw std::runtime_error("cannot run " + command + ": " + std::strerror(spawned));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  const std::string first_line = said.substr(0, said.find('\n'));
  throw std::runtime_error(command + " failed" + (first_line.empty() ? "" : ": " + first_line));
}

bool namespace_exists(const std::string& name) {
  struct stat st {};
  return ::stat(("/run/netns/" + name).c_str(), &st) == 0;
}

}  // namespace

std::string missing_privilege() {
  if (::geteuid() != 0) return "needs root (network namespaces and TAP devices); run it with sudo";
  const int fd = ::open("/dev/net/tun", O_RDWR | O_CLOEXEC);
  if (fd < 0) return std::string("cannot open /dev/net/tun: ") + std::strerror(errno);
  ::close(fd);
  return "";
}

bool valid_namespace_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNamespaceName || name == "." || name == "..") return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

EndpointNamespace::EndpointNamespace(std::string name, const std::string& address, int prefix_bits)
    : name_(std::move(name)) {
  static std::atomic<int> serial{0};
  // The TAP's name in the root namespace, unique to this process until it moves.
  const std::string tap = "me" + std::to_string(::getpid()) + "_" + std::to_string(serial++);
  try {
    if (!namespace_exists(name_)) {
      run({"ip", "netns", "add", name_});
      created_ = true;
    }
    fd_ = ::open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(std::string("cannot open /dev/net/tun: ") + std::strerror(errno));
    ifreq ifr{};
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    std::strncpy(ifr.ifr_name, tap.c_str(), IFNAMSIZ - 1);
    if (::ioctl(fd_, TUNSETIFF, &ifr) != 0) {
      throw std::runtime_error("cannot make TAP " + tap + ": " + std::strerror(errno));
    }
    const int sock = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ifreq hw{};
    std::strncpy(hw.ifr_name, tap.c_str(), IFNAMSIZ - 1);
    const bool got_mac = sock >= 0 && ::ioctl(sock, SIOCGIFHWADDR, &hw) == 0;
    if (sock >= 0) ::close(sock);
    if (!got_mac) throw std::runtime_error("cannot read the MAC address of TAP " + tap);
    std::memcpy(mac_.data(), hw.ifr_hwaddr.sa_data, mac_.size());
    run({"ip", "link", "set", "dev", tap, "netns", name_});
    run({"ip", "-n", name_, "link", "set", "dev", tap, "name", kInterface});
    run({"ip", "-n", name_, "addr", "add", address + "/" + std::to_string(prefix_bits), "dev", kInterface});
    run({"ip", "netns", "exec", name_, "sysctl", "-q", "-w",
         std::string("net.ipv6.conf.") + kInterface + ".disable_ipv6=1"});
    run({"ip", "netns", "exec", name_, "sysctl", "-q", "-w",
         std::string("net.ipv4.ip_local_port_range=") + kEphemeralPorts});
    run({"ip", "-n", name_, "link", "set", "dev", "lo", "up"});
    run({"ip", "-n", name_, "link", "set", "dev", kInterface, "up"});
    run({"ip", "-n", name_, "route", "add", "default", "dev", kInterface});
  } catch (...) {
    undo();
    throw;
  }
}

EndpointNamespace::~EndpointNamespace() { undo(); }

void EndpointNamespace::undo() noexcept {
  if (fd_ >= 0) ::close(fd_);  // a TAP that is not persistent goes with its last fd
  fd_ = -1;
  if (created_) {
    try {
      run({"ip", "netns", "del", name_});
    } catch (...) {  // nothing left to do about it at the end of a run
    }
    created_ = false;
  }
}

}  // namespace mantra::emu
