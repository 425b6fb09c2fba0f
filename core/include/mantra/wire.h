// Bounds-checked, big-endian wire Reader and Writer, and the DecodeResult of
// every packet decoder in the core.
//
// A Reader never reads past its span and never throws: each read either
// succeeds or marks the reader failed and leaves the output untouched, so a
// decoder can read all fields and check `ok()` once. Decoders return a
// DecodeResult holding the packet or a one-line error that names the field.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mantra {

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>& out) : out_(out) {}
  void u8(uint8_t v) { out_.push_back(v); }
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void zeros(size_t n) { out_.insert(out_.end(), n, 0); }
  size_t size() const { return out_.size(); }

 private:
  void put(uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t>& out_;
};

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> in) : in_(in) {}

  // Each read returns false (and fails the reader) when too few bytes remain.
  bool u8(uint8_t& v) {
    uint64_t x;
    if (!get(x, 1)) return false;
    v = static_cast<uint8_t>(x);
    return true;
  }
  bool u16(uint16_t& v) {
    uint64_t x;
    if (!get(x, 2)) return false;
    v = static_cast<uint16_t>(x);
    return true;
  }
  bool u32(uint32_t& v) {
    uint64_t x;
    if (!get(x, 4)) return false;
    v = static_cast<uint32_t>(x);
    return true;
  }
  bool u64(uint64_t& v) { return get(v, 8); }
  // A view of the next n bytes, advancing past them.
  bool view(size_t n, std::span<const uint8_t>& out) {
    if (!ok_ || remaining() < n) {
      ok_ = false;
      return false;
    }
    out = in_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  bool skip(size_t n) {
    std::span<const uint8_t> ignored;
    return view(n, ignored);
  }

  bool ok() const { return ok_; }
  size_t position() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }

 private:
  bool get(uint64_t& v, size_t n) {
    if (!ok_ || remaining() < n) {
      ok_ = false;
      return false;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < n; ++i) x = (x << 8) | in_[pos_ + i];
    pos_ += n;
    v = x;
    return true;
  }
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// The outcome of decoding one packet: the value, or why the bytes are bad.
template <typename T>
class DecodeResult {
 public:
  DecodeResult(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  static DecodeResult failure(std::string why) { return DecodeResult(std::move(why), 0); }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const { return *value_; }
  const T& operator*() const { return *value_; }
  const T* operator->() const { return &*value_; }
  const std::string& error() const { return error_; }

 private:
  DecodeResult(std::string why, int) : error_(std::move(why)) {}
  std::optional<T> value_;
  std::string error_;
};

}  // namespace mantra
