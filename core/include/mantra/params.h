// Named numeric parameters for an endpoint, read strictly.
//
// A protocol reads each parameter it knows with get(name, default) and then
// calls finish(); any name it did not read is an error, so a typo in a run
// spec ("pakcet_size") fails loudly instead of running with the default.
#pragma once

#include <map>
#include <set>
#include <string>

namespace mantra {

using Params = std::map<std::string, double>;

class ParamReader {
 public:
  explicit ParamReader(const Params& params) : params_(params) {}

  double get(const std::string& name, double default_value) {
    read_.insert(name);
    auto it = params_.find(name);
    return it == params_.end() ? default_value : it->second;
  }
  bool has(const std::string& name) const { return params_.count(name) != 0; }

  // Records a violated constraint; the first one is kept.
  void require(bool condition, const std::string& message) {
    if (!condition && error_.empty()) error_ = message;
  }

  // Empty when every given parameter was read and every constraint held,
  // else a one-line error naming the parameter.
  std::string finish() const {
    if (!error_.empty()) return error_;
    for (const auto& [name, value] : params_) {
      if (!read_.count(name)) return "unknown parameter '" + name + "'";
    }
    return {};
  }

 private:
  const Params& params_;
  std::set<std::string> read_;
  std::string error_;
};

}  // namespace mantra
