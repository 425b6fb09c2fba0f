// Replays a fuzz target's inputs without libFuzzer, so the normal build's
// ctest runs every checked-in corpus and finding through the target (with
// the build's own compiler and flags). Arguments: files or directories (their
// regular files, in name order). A failing input aborts inside the target;
// an unreadable argument exits 2 with its name.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::vector<std::filesystem::path> files;
    std::error_code error;
    if (std::filesystem::is_directory(arg, error)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg, error))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(arg);
    }
    if (error || files.empty()) {
      std::fprintf(stderr, "replay: %s: no input there\n", argv[i]);
      return 2;
    }
    for (const auto& file : files) {
      if (!replay(file)) {
        std::fprintf(stderr, "replay: %s: cannot read it\n", file.c_str());
        return 2;
      }
      ++replayed;
    }
  }
  std::printf("replayed %zu inputs\n", replayed);
  return 0;
}
