#include "common/options.h"

namespace mantra {

size_t encode_options(const std::vector<WireOption>& options, Writer& w) {
  const size_t start = w.size();
  for (const auto& o : options) {
    w.u8(o.type);
    w.u8(static_cast<uint8_t>(o.value.size()));
    w.bytes(o.value);
  }
  return w.size() - start;
}

DecodeResult<std::vector<WireOption>> decode_options(Reader& r, size_t length) {
  std::span<const uint8_t> area;
  if (!r.view(length, area)) return DecodeResult<std::vector<WireOption>>::failure("options truncated");
  Reader o(area);
  std::vector<WireOption> out;
  while (o.remaining() > 0) {
    WireOption opt;
    uint8_t len = 0;
    std::span<const uint8_t> value;
    if (!o.u8(opt.type) || !o.u8(len) || !o.view(len, value)) {
      return DecodeResult<std::vector<WireOption>>::failure("option overruns the options area");
    }
    opt.value.assign(value.begin(), value.end());
    out.push_back(std::move(opt));
  }
  return out;
}

}  // namespace mantra
