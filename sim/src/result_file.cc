#include "result_file.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace mantra::sim {

bool write_result(const std::string& doc, const std::string& path, const std::string& program) {
  if (path.empty()) {
    std::cout << doc << "\n" << std::flush;
    return static_cast<bool>(std::cout);
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!(out << doc << "\n") || !out.flush()) {
      std::cerr << program << ": cannot write " << tmp << "\n";
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::cerr << program << ": cannot write " << path << "\n";
    return false;
  }
  return true;
}

}  // namespace mantra::sim
