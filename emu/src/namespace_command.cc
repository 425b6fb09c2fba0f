#include "namespace_command.h"

#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace mantra::emu {
namespace {
constexpr auto kGrace = std::chrono::seconds(2);  // after SIGTERM, before SIGKILL
constexpr auto kPoll = std::chrono::milliseconds(20);
}  // namespace

NamespaceCommand::NamespaceCommand(std::vector<std::string> argv, std::string namespace_name, std::vector<int> cpus)
    : argv_(std::move(argv)), namespace_(std::move(namespace_name)), cpus_(std::move(cpus)) {}

NamespaceCommand::~NamespaceCommand() {
  if (pid_ > 0 && !finished_) finish();
}

void NamespaceCommand::start() {
  std::vector<std::string> full = {"ip", "netns", "exec", namespace_};
  full.insert(full.end(), argv_.begin(), argv_.end());
  std::vector<char*> args;
  for (std::string& a : full) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: stopped as a whole at the end
  const int spawned = posix_spawnp(&pid_, args[0], nullptr, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  if (spawned != 0) {
    pid_ = -1;
    throw std::runtime_error("cannot start the command: " + std::string(std::strerror(spawned)));
  }
  if (!cpus_.empty()) {  // inherited through exec and by its children
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus_) CPU_SET(c, &set);
    sched_setaffinity(pid_, sizeof set, &set);
  }
}

nlohmann::json NamespaceCommand::finish() {
  if (pid_ > 0 && !finished_) {
    int status = 0;
    pid_t got = ::waitpid(pid_, &status, WNOHANG);
    if (got == 0) {  // still running at the run's end
      stopped_ = true;
      ::kill(-pid_, SIGTERM);
      const auto deadline = std::chrono::steady_clock::now() + kGrace;
      while ((got = ::waitpid(pid_, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(kPoll);
      }
      if (got == 0) {
        ::kill(-pid_, SIGKILL);
        got = ::waitpid(pid_, &status, 0);
      }
    }
    ::kill(-pid_, SIGKILL);  // what the command left running in its group
    finished_ = true;
    if (got == pid_ && WIFEXITED(status)) exit_status_ = WEXITSTATUS(status);
    if (got == pid_ && WIFSIGNALED(status)) signal_ = WTERMSIG(status);
  }
  return {{"argv", argv_},
          {"namespace", namespace_},
          {"cpus", cpus_},
          {"exit_status", exit_status_ >= 0 ? nlohmann::json(exit_status_) : nlohmann::json(nullptr)},
          {"signal", signal_ ? nlohmann::json(signal_) : nlohmann::json(nullptr)},
          {"stopped_at_end", stopped_}};
}

}  // namespace mantra::emu
