#include "session_wire.h"

#include <bit>
#include <cmath>

namespace mantra::udp {
namespace {

void put_string(Writer& w, const std::string& s) {
  w.u8(static_cast<uint8_t>(s.size()));
  w.bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}

bool get_string(Reader& r, std::string& out) {
  uint8_t n = 0;
  std::span<const uint8_t> b;
  if (!r.u8(n) || !r.view(n, b)) return false;
  out.assign(b.begin(), b.end());
  return true;
}

void put_double(Writer& w, double v) { w.u64(std::bit_cast<uint64_t>(v)); }

bool get_double(Reader& r, double& out) {
  uint64_t bits = 0;
  if (!r.u64(bits)) return false;
  out = std::bit_cast<double>(bits);
  return std::isfinite(out);
}

void put_i64(Writer& w, int64_t v) { w.u64(static_cast<uint64_t>(v)); }

bool get_i64(Reader& r, int64_t& out) {
  uint64_t v = 0;
  if (!r.u64(v)) return false;
  out = static_cast<int64_t>(v);
  return true;
}

void put_pairs(Writer& w, const std::vector<std::pair<std::string, double>>& pairs) {
  w.u8(static_cast<uint8_t>(pairs.size()));
  for (const auto& [name, value] : pairs) {
    put_string(w, name);
    put_double(w, value);
  }
}

bool get_pairs(Reader& r, std::vector<std::pair<std::string, double>>& out) {
  uint8_t n = 0;
  if (!r.u8(n)) return false;
  for (int i = 0; i < n; ++i) {
    std::string name;
    double value = 0;
    if (!get_string(r, name) || !get_double(r, value)) return false;
    out.emplace_back(std::move(name), value);
  }
  return true;
}

void put_params(Writer& w, const Params& p) { put_pairs(w, {p.begin(), p.end()}); }

bool get_params(Reader& r, Params& out) {
  std::vector<std::pair<std::string, double>> pairs;
  if (!get_pairs(r, pairs)) return false;
  for (auto& [name, value] : pairs) {
    if (!out.emplace(std::move(name), value).second) return false;  // a name given twice
  }
  return true;
}

// Whether a decoder read its body whole: no field missing, nothing left over.
template <typename T>
DecodeResult<T> finish(const Reader& r, T value, const char* what) {
  if (!r.ok()) return DecodeResult<T>::failure(std::string(what) + ": truncated or malformed");
  if (r.remaining() != 0) return DecodeResult<T>::failure(std::string(what) + ": bytes left after the message");
  return value;
}

bool get_version(Reader& r) {
  uint8_t v = 0;
  return r.u8(v) && v == kSessionVersion;
}

}  // namespace

void append_trailer(std::vector<uint8_t>& datagram, Trailer trailer) {
  Writer w(datagram);
  w.u64(trailer.token);
  w.u8(static_cast<uint8_t>(trailer.kind));
}

std::optional<std::pair<Trailer, std::span<const uint8_t>>> split_trailer(std::span<const uint8_t> datagram) {
  if (datagram.size() < kTrailerBytes) return std::nullopt;
  const size_t body = datagram.size() - kTrailerBytes;
  Reader r(datagram.subspan(body));
  Trailer t;
  uint8_t kind = 0;
  r.u64(t.token);
  r.u8(kind);
  if (kind > static_cast<uint8_t>(WireKind::kByeAck)) return std::nullopt;
  t.kind = static_cast<WireKind>(kind);
  return std::make_pair(t, datagram.first(body));
}

std::vector<uint8_t> encode_hello(const Hello& m) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u8(kSessionVersion);
  put_string(w, m.protocol);
  put_params(w, m.sender_params);
  put_params(w, m.receiver_params);
  put_string(w, m.boot_id);
  put_i64(w, m.t0_us);
  w.u16(m.data_header_bytes);
  w.u8(static_cast<uint8_t>(m.app));
  return out;
}

DecodeResult<Hello> decode_hello(std::span<const uint8_t> body) {
  Reader r(body);
  Hello m;
  if (!get_version(r)) return DecodeResult<Hello>::failure("hello: unknown session version");
  const bool read = get_string(r, m.protocol) && get_params(r, m.sender_params) && get_params(r, m.receiver_params) &&
                    get_string(r, m.boot_id) && get_i64(r, m.t0_us) && r.u16(m.data_header_bytes);
  uint8_t app = 0;
  if (!read || !r.u8(app)) return DecodeResult<Hello>::failure("hello: truncated or malformed");
  if (app > static_cast<uint8_t>(AppKind::kVideo))
    return DecodeResult<Hello>::failure("hello: unknown application kind");
  m.app = static_cast<AppKind>(app);
  return finish(r, std::move(m), "hello");
}

std::vector<uint8_t> encode_accept(const Accept& m) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u8(kSessionVersion);
  put_i64(w, m.t0_us);
  put_i64(w, m.t1_us);
  put_i64(w, m.t2_us);
  put_string(w, m.boot_id);
  return out;
}

DecodeResult<Accept> decode_accept(std::span<const uint8_t> body) {
  Reader r(body);
  Accept m;
  if (!get_version(r)) return DecodeResult<Accept>::failure("accept: unknown session version");
  const bool read = get_i64(r, m.t0_us) && get_i64(r, m.t1_us) && get_i64(r, m.t2_us) && get_string(r, m.boot_id);
  if (!read) return DecodeResult<Accept>::failure("accept: truncated or malformed");
  return finish(r, std::move(m), "accept");
}

std::vector<uint8_t> encode_refuse(const std::string& why) {
  std::vector<uint8_t> out;
  Writer w(out);
  const size_t n = std::min<size_t>(why.size(), 1000);
  w.u16(static_cast<uint16_t>(n));
  w.bytes({reinterpret_cast<const uint8_t*>(why.data()), n});
  return out;
}

DecodeResult<std::string> decode_refuse(std::span<const uint8_t> body) {
  Reader r(body);
  uint16_t n = 0;
  std::span<const uint8_t> b;
  r.u16(n) && r.view(n, b);
  return finish(r, std::string(b.begin(), b.end()), "refuse");
}

std::vector<uint8_t> encode_bye(const Bye& m) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u64(m.data_packets);
  w.u64(m.core_bytes);
  w.u64(m.app_bytes);
  w.u8(m.app_complete ? 1 : 0);
  put_pairs(w, m.diagnostics);
  return out;
}

DecodeResult<Bye> decode_bye(std::span<const uint8_t> body) {
  Reader r(body);
  Bye m;
  uint8_t complete = 0;
  const bool read = r.u64(m.data_packets) && r.u64(m.core_bytes) && r.u64(m.app_bytes) && r.u8(complete) &&
                    complete <= 1 && get_pairs(r, m.diagnostics);
  if (!read) return DecodeResult<Bye>::failure("bye: truncated or malformed");
  m.app_complete = complete == 1;
  return finish(r, std::move(m), "bye");
}

}  // namespace mantra::udp
