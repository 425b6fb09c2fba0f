// Writes a finished result document: to standard output (`path` empty), or to
// `path` atomically (a temporary file beside it, then rename), so a reader
// never sees half a result. On failure, one line on stderr starting with
// `program`, and false.
#pragma once

#include <string>

namespace mantra::sim {

bool write_result(const std::string& doc, const std::string& path, const std::string& program);

}  // namespace mantra::sim
