// The program mantra-emu runs in an endpoint's namespace (`-- COMMAND`):
// started with the run (simulated time 0) through `ip netns exec`, in its own
// process group, on the CPUs the simulator leaves free; at the run's end it
// is waited for, and whatever of its group still runs is stopped (SIGTERM,
// then SIGKILL after a grace period).
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mantra::emu {

class NamespaceCommand {
 public:
  NamespaceCommand(std::vector<std::string> argv, std::string namespace_name, std::vector<int> cpus);
  ~NamespaceCommand();
  NamespaceCommand(const NamespaceCommand&) = delete;
  NamespaceCommand& operator=(const NamespaceCommand&) = delete;

  // Throws std::runtime_error (one line) if it cannot be started.
  void start();
  // Waits for it (stopping it if it outlives the run); what became of it:
  // {argv, namespace, cpus, exit_status (null if a signal ended it), signal,
  // stopped_at_end}.
  nlohmann::json finish();
  // Its exit status was 0.
  bool succeeded() const { return finished_ && exit_status_ == 0; }

 private:
  std::vector<std::string> argv_;
  std::string namespace_;
  std::vector<int> cpus_;
  pid_t pid_ = -1;
  bool finished_ = false;
  int exit_status_ = -1;
  int signal_ = 0;
  bool stopped_ = false;
};

}  // namespace mantra::emu
